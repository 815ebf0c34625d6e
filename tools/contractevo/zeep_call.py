"""zeep, a real SOAP client, imports a live ?WSDL and calls one operation on one port.

Usage (the contract-evolution test runs it with Debian's /usr/bin/python3, which has python3-zeep):
    python3 zeep_call.py WSDL_URL soap11|soap12|get|post OPERATION JSON_ARGUMENTS

JSON_ARGUMENTS is an object of the operation's parameters by name (a complex one as a nested object).
zeep speaks the HTTP GET and POST bindings too (its http binding, mime:mimeXml results).
The result, serialized by zeep.helpers.serialize_object, is printed as JSON on stdout (a dateTime in
its ISO form with the offset zeep parsed); a fault or any other failure exits non-zero with the
message on stderr. The script knows no operation: it is told which to call, so one script serves
every contract patch.
"""

import json
import sys

import zeep
import zeep.helpers
import zeep.transports

PORTS = {"soap11": "SyncServiceSoap", "soap12": "SyncServiceSoap12", "get": "SyncServiceHttpGet", "post": "SyncServiceHttpPost"}


def main():
    wsdl, binding, op, args = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    client = zeep.Client(wsdl, port_name=PORTS[binding], transport=zeep.transports.Transport(timeout=20))
    result = getattr(client.service, op)(**args)
    out = zeep.helpers.serialize_object(result, target_cls=dict)
    json.dump(out, sys.stdout, default=lambda v: v.isoformat() if hasattr(v, "isoformat") else str(v))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
