"""Python interop client for the authenticated run: zeep's WS-Security UsernameToken.

Usage (run.sh runs it with Debian's /usr/bin/python3, which has python3-zeep):
    python3 auth_client.py WSDL_URL soap11|soap12 ID text|digest USER PASSWORD

Checks, each one PASS/FAIL line: TestCreateContact and ReadContact with the right password (PasswordText,
or PasswordDigest with a fresh nonce per call); a call with a wrong password fails with the WS-Security
fault FailedAuthentication; with digest, a token sent twice (same nonce and created time) is refused
the second time as a replay.
"""

import datetime
import sys

import zeep
import zeep.exceptions
import zeep.transports
import zeep.wsse.username

import client as base  # the unauthenticated scenario's helpers (same directory)

CHECKS = {"text": 3, "digest": 4}


def new_service(wsdl, binding, token):
    c = zeep.Client(wsdl, port_name=base.PORTS[binding], wsse=token,
                    transport=zeep.transports.Transport(timeout=10, operation_timeout=30))
    return c.service


def expect_auth_fault(binding, call, reason):
    try:
        call()
    except zeep.exceptions.Fault as f:
        if binding == "soap12":
            subcodes = [q.localname for q in f.subcodes or []]
            base.expect(f"subcodes [FailedAuthentication, Unauthenticated], got {subcodes}",
                        subcodes == ["FailedAuthentication", "Unauthenticated"])
        else:
            base.eq("fault code", "FailedAuthentication", f.code.split(":")[-1])
        base.expect(f"message mentioning {reason!r}, got {f.message!r}", reason in f.message)
        return
    raise base.Mismatch("the call succeeded")


def main():
    if len(sys.argv) != 7 or sys.argv[2] not in base.PORTS or sys.argv[4] not in CHECKS:
        print(__doc__, file=sys.stderr)
        return 2
    wsdl, binding, id, mode, user, password = sys.argv[1:]
    base.label = f"python-auth/{binding}/{mode}"
    digest = mode == "digest"
    svc = new_service(wsdl, binding, zeep.wsse.username.UsernameToken(user, password, use_digest=digest))

    state = {}

    def create():
        state["created"] = base.record(svc.TestCreateContact(id=id))
        base.expect_created(state["created"], id)

    base.check(f"TestCreateContact with UsernameToken {mode}", create)
    base.check(f"ReadContact with UsernameToken {mode}",
               lambda: base.expect_equal(base.record(svc.ReadContact(id=id)), state.get("created")))
    wrong = new_service(wsdl, binding, zeep.wsse.username.UsernameToken(user, password + "-wrong", use_digest=digest))
    base.check(f"wrong password ({mode}) is refused",
               lambda: expect_auth_fault(binding, lambda: wrong.ReadContact(id=id), "could not be authenticated"))
    if digest:
        fixed = zeep.wsse.username.UsernameToken(user, password, use_digest=True, nonce=f"nonce-{id}",
                                                  created=datetime.datetime.now(datetime.timezone.utc))
        replaying = new_service(wsdl, binding, fixed)

        def replay():
            base.eq("first use", 1, replaying.VersionMajor())
            expect_auth_fault(binding, replaying.VersionMajor, "nonce was already used")

        base.check("replayed digest token is refused", replay)
    return 0 if base.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
