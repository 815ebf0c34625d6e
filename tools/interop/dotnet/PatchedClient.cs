// .NET (Mono) client of the patched contract: run.sh builds a server with the contract-evolution patches
// tools/interop/patches lists, generates its SOAP 1.1 and SOAP 1.2 proxies with Mono's `wsdl`
// (/protocol:SOAP, SOAP12, into ContactSync.Patched.SOAP and .SOAP12), compiles them with this file,
// and runs `mono patched.exe BINDING ID` once per binding. Every check goes through the generated
// proxy, as a .NET user's code would:
//   13-header-op  Greet: the In header CallerHeader is the proxy's CallerHeaderValue, the Out header
//                 TraceHeader comes back in its TraceHeaderValue ([SoapHeader(Direction=Out)]).
//   09-out-ref    SplitContactName(string id, ref int calls, out string lastName).
// The scenario is written against `dynamic`, because each proxy has its own types.
using System;
using System.Web.Services.Protocols;

static class PatchedClient
{
    static string label;
    static int failed;

    static int Main(string[] args)
    {
        if (args.Length != 2)
        {
            Console.Error.WriteLine("usage: patched.exe soap11|soap12 ID");
            return 2;
        }
        string binding = args[0], id = args[1];
        label = "dotnet-patched/" + binding;
        dynamic svc;
        switch (binding)
        {
            case "soap11": svc = new ContactSync.Patched.SOAP.SyncService(); break;
            case "soap12": svc = new ContactSync.Patched.SOAP12.SyncService(); break;
            default: Console.Error.WriteLine("unknown binding " + binding); return 2;
        }
        svc.Timeout = 30000;
        HeaderOperation(svc, id);
        OutRefOperation(svc, binding, id);
        // Issue 33: the polymorphic-Contact patch (15-*) adds its checks here: send a derived value
        // and read it back, asserting its type and every field.
        return failed == 0 ? 0 : 1;
    }

    // HeaderOperation calls 13-header-op's Greet with and without its In header and reads the Out header.
    static void HeaderOperation(dynamic svc, string id)
    {
        string name = "Ann " + id;
        Check("Greet with the In header CallerHeader: result and Out header TraceHeader", () =>
        {
            object proxy = svc;
            dynamic caller = Activator.CreateInstance(proxy.GetType().GetProperty("CallerHeaderValue").PropertyType);
            caller.Caller = "bob & <co>";
            svc.CallerHeaderValue = caller;
            svc.TraceHeaderValue = null;
            Eq("result", "Hello " + name + " from bob & <co>", (string)svc.Greet(name));
            ExpectTrace(svc.TraceHeaderValue, name);
        });
        Check("Greet without the In header: result and Out header TraceHeader", () =>
        {
            svc.CallerHeaderValue = null;
            svc.TraceHeaderValue = null;
            Eq("result", "Hello " + name + "-2 from nobody", (string)svc.Greet(name + "-2"));
            ExpectTrace(svc.TraceHeaderValue, name + "-2");
        });
    }

    static void ExpectTrace(dynamic trace, string name)
    {
        if (trace == null) throw new Exception("no TraceHeader in the response (TraceHeaderValue is null)");
        Eq("TraceHeader.RequestId", "greet-" + name, (string)trace.RequestId);
        Eq("TraceHeader.Step", 1, (int)trace.Step);
    }

    // OutRefOperation calls 09-out-ref's SplitContactName on a contact TestCreateContact stores: the
    // result, the out parameter and the ref parameter all come back; a missing contact is a fault.
    static void OutRefOperation(dynamic svc, string binding, string id)
    {
        Check("SplitContactName: result, out lastName, ref calls", () =>
        {
            dynamic created = svc.TestCreateContact(id);
            if (created == null) throw new Exception("TestCreateContact returned no Contact");
            int calls = 4;
            string lastName = "unset";
            string first = svc.SplitContactName(id, ref calls, out lastName);
            Eq("result", (string)created.FirstName, first);
            Eq("out lastName", (string)created.LastName, lastName);
            Eq("ref calls", 5, calls);
        });
        Check("SplitContactName of a missing contact is NotFound", () =>
        {
            int calls = 1;
            string lastName;
            try
            {
                svc.SplitContactName(id + "-missing", ref calls, out lastName);
            }
            catch (SoapException e)
            {
                Eq("fault code", binding == "soap12" ? "Sender" : "Client", e.Code.Name);
                Eq("fault message", "Contact \"" + id + "-missing\" does not exist.", e.Message);
                return;
            }
            throw new Exception("SplitContactName succeeded for a missing contact");
        });
    }

    static void Check(string name, Action body)
    {
        try
        {
            body();
            Console.WriteLine("PASS " + label + " " + name);
        }
        catch (Exception e)
        {
            failed++;
            Console.WriteLine("FAIL " + label + " " + name + ": " + e.GetType().Name + ": " + (e.Message ?? "").Replace("\r", " ").Replace("\n", " "));
        }
    }

    static void Eq<T>(string what, T want, T got)
    {
        if (!Equals(want, got)) throw new Exception(what + ": got " + Show(got) + ", want " + Show(want));
    }

    static string Show(object o) { return o == null ? "null" : "\"" + o + "\""; }
}
