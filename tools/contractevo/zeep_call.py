"""zeep, a real SOAP client, imports a live ?WSDL and calls one operation on one port.

Usage (the contract-evolution test runs it with Debian's /usr/bin/python3, which has python3-zeep):
    python3 zeep_call.py WSDL_URL soap11|soap12|get|post OPERATION JSON_ARGUMENTS

JSON_ARGUMENTS is an object of the operation's parameters by name (a complex one as a nested object, a
list as a JSON array). A dateTime argument is an object {"$datetime": "<ISO 8601>"}, given to zeep as
a Python datetime, which zeep writes in ISO form over SOAP and as Python's str() over HTTP GET and POST.
zeep speaks the HTTP GET and POST bindings too (its http binding, mime:mimeXml results).
The result, serialized by zeep.helpers.serialize_object, is printed as JSON on stdout (a dateTime in
its ISO form with the offset zeep parsed); a fault or any other failure exits non-zero with the
message on stderr. The script knows no operation: it is told which to call, so one script serves
every contract patch.

A contract that offers an array parameter over HTTP GET/POST has ASMX's AbstractTypes schema, whose
StringArray restricts soapenc:Array; zeep then imports the SOAP encoding schema from its namespace
URL, which a machine without Internet access cannot fetch. LocalSchemas serves it from the copy
Debian's python3-xmlschema ships.
"""

import datetime
import json
import sys

import zeep
import zeep.helpers
import zeep.transports

PORTS = {"soap11": "SyncServiceSoap", "soap12": "SyncServiceSoap12", "get": "SyncServiceHttpGet", "post": "SyncServiceHttpPost"}

# The schemas zeep fetches by URL, and the local copies served in their place.
LOCAL_SCHEMAS = {
    "http://schemas.xmlsoap.org/soap/encoding/": "/usr/lib/python3/dist-packages/xmlschema/schemas/WSDL/soap-encoding.xsd",
}


class LocalSchemas(zeep.transports.Transport):
    """A transport that loads the well-known schemas in LOCAL_SCHEMAS from disk."""

    def load(self, url):
        path = LOCAL_SCHEMAS.get(url)
        if path is None:
            return super().load(url)
        with open(path, "rb") as f:
            return f.read()


def arguments(value):
    """Turns {"$datetime": "…"} objects, anywhere in the arguments, into datetimes."""
    if isinstance(value, dict):
        if set(value) == {"$datetime"}:
            return datetime.datetime.fromisoformat(value["$datetime"])
        return {k: arguments(v) for k, v in value.items()}
    if isinstance(value, list):
        return [arguments(v) for v in value]
    return value


def main():
    wsdl, binding, op, args = sys.argv[1], sys.argv[2], sys.argv[3], arguments(json.loads(sys.argv[4]))
    client = zeep.Client(wsdl, port_name=PORTS[binding], transport=LocalSchemas(timeout=20))
    result = getattr(client.service, op)(**args)
    out = zeep.helpers.serialize_object(result, target_cls=dict)
    json.dump(out, sys.stdout, default=lambda v: v.isoformat() if hasattr(v, "isoformat") else str(v))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
