"""Python interop client: zeep imports the live ?WSDL and runs the scenario on one port.

Usage (run.sh runs it with Debian's /usr/bin/python3, which has python3-zeep):
    python3 client.py WSDL_URL soap11|soap12 ID
"""

import sys

import zeep
import zeep.exceptions
import zeep.helpers
import zeep.transports

PORTS = {"soap11": "SyncServiceSoap", "soap12": "SyncServiceSoap12"}
FIELDS = ["Id", "AccountId", "FirstName", "LastName", "PhoneMobile", "PhoneWork", "EmailAddress"]

label = ""
failed = 0


class Mismatch(Exception):
    pass


def check(name, body):
    global failed
    try:
        body()
        print(f"PASS {label} {name}", flush=True)
    except Exception as e:  # every failure, assertion or client error, is a FAIL line
        failed += 1
        msg = str(e).replace("\r", " ").replace("\n", " ")
        print(f"FAIL {label} {name}: {type(e).__name__}: {msg}", flush=True)


def eq(what, want, got):
    if want != got:
        raise Mismatch(f"{what}: got {got!r}, want {want!r}")


def expect(what, ok, rec=None):
    if not ok:
        raise Mismatch(f"want {what}" + (f" in {rec}" if rec is not None else ""))


def record(contact):
    """A plain dict of every field of a zeep Contact, RoleIds as a list."""
    if contact is None:
        raise Mismatch("no Contact in the response")
    rec = {f: contact[f] for f in FIELDS}
    roles = contact["RoleIds"]
    rec["RoleIds"] = None if roles is None else list(roles["string"])
    return rec


def expect_created(c, id):
    eq("Id", id, c["Id"])
    a = c["AccountId"] or ""
    expect("AccountId ACC-xxxxxxxx", a.startswith("ACC-") and len(a) == 12, c)
    eq("FirstName", "Test", c["FirstName"])
    ln = c["LastName"] or ""
    expect("LastName Contact xxxxxx", ln.startswith("Contact ") and len(ln) == 14, c)
    expect("PhoneMobile non-empty", bool(c["PhoneMobile"]), c)
    expect("PhoneWork non-empty", bool(c["PhoneWork"]), c)
    em = c["EmailAddress"] or ""
    expect("EmailAddress test.xxxxxxxx@example.com", em.startswith("test.") and em.endswith("@example.com"), c)
    r = c["RoleIds"] or []
    expect("RoleIds [role-user, role-xxxx]", len(r) == 2 and r[0] == "role-user" and r[1].startswith("role-"), c)


def expect_update_of(u, c):
    if c is None:
        raise Mismatch("nothing to compare with: an earlier step failed")
    for f in ["Id", "AccountId", "LastName", "PhoneMobile"]:
        eq(f, c[f], u[f])
    eq("FirstName", "Updated", u["FirstName"])
    expect("PhoneWork changed", bool(u["PhoneWork"]) and u["PhoneWork"] != c["PhoneWork"], u)
    eq("EmailAddress", "updated." + c["EmailAddress"][len("test."):], u["EmailAddress"])
    eq("RoleIds", c["RoleIds"] + ["role-updated"], u["RoleIds"])


def expect_equal(got, want):
    if want is None:
        raise Mismatch("nothing to compare with: an earlier step failed")
    eq("contact", want, got)


def scenario(svc, binding, id):
    check("VersionMajor", lambda: eq("result", 1, svc.VersionMajor()))
    check("VersionMinor", lambda: eq("result", 0, svc.VersionMinor()))
    check("Version", lambda: eq("result", "1.0", svc.Version()))

    state = {}

    def create():
        state["created"] = record(svc.TestCreateContact(id=id))
        expect_created(state["created"], id)

    def update():
        state["updated"] = record(svc.TestUpdateContact(id=id))
        expect_update_of(state["updated"], state.get("created"))

    def not_found():
        try:
            svc.ReadContact(id=id)
        except zeep.exceptions.Fault as f:
            eq("fault code", "Sender" if binding == "soap12" else "Client", f.code.split(":")[-1])
            if binding == "soap12":
                eq("fault subcode", ["NotFound"], [q.localname for q in f.subcodes or []])
            eq("fault message", f'Contact "{id}" does not exist.', f.message)
            codes = [] if f.detail is None else [e.text for e in f.detail.iter() if e.tag.endswith("}ErrorCode")]
            eq("fault detail ErrorCode", ["NotFound"], codes)
            return
        raise Mismatch("ReadContact succeeded after DeleteContact")

    check("TestCreateContact", create)
    check("ReadContact equals created", lambda: expect_equal(record(svc.ReadContact(id=id)), state.get("created")))
    check("TestUpdateContact", update)
    check("ReadContact equals updated", lambda: expect_equal(record(svc.ReadContact(id=id)), state.get("updated")))
    check("DeleteContact returns updated",
          lambda: expect_equal(record(svc.DeleteContact(id=id)), state.get("updated")))
    check("ReadContact after delete is NotFound", not_found)


def main():
    global label
    if len(sys.argv) != 4 or sys.argv[2] not in PORTS:
        print(__doc__, file=sys.stderr)
        return 2
    wsdl, binding, id = sys.argv[1:]
    label = "python/" + binding
    client = zeep.Client(wsdl, port_name=PORTS[binding],
                         transport=zeep.transports.Transport(timeout=10, operation_timeout=30))
    scenario(client.service, binding, id)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
