// .NET (Mono) client of the patched contract: run.sh builds a server with the contract-evolution patches
// tools/interop/patches lists, generates its SOAP 1.1 and SOAP 1.2 proxies with Mono's `wsdl`
// (/protocol:SOAP, SOAP12, into ContactSync.Patched.SOAP and .SOAP12), compiles them with this file,
// and runs `mono patched.exe BINDING ID` once per binding. Every check goes through the generated
// proxy, as a .NET user's code would:
//   13-header-op  Greet: the In header CallerHeader is the proxy's CallerHeaderValue, the Out header
//                 TraceHeader comes back in its TraceHeaderValue ([SoapHeader(Direction=Out)]).
//   09-out-ref    SplitContactName(string id, ref int calls, out string lastName).
//   15-polymorphic-contact  SavePolymorphicContact(Contact contact): Contact.Pet is an Animal, and the
//                 proxy has Animal's derived classes Dog and Parrot (through the abstract Bird), each an
//                 [XmlInclude] of its base, so a Dog or a Parrot in Pet goes out with xsi:type and
//                 comes back as that class.
// The scenario is written against `dynamic`, because each proxy has its own types; where it must create
// one of them (a Contact, a Dog), it finds the class by name next to the proxy class.
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
        PolymorphicOperation(svc, id);
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

    // PolymorphicOperation calls 15-polymorphic-contact's SavePolymorphicContact with a whole Contact whose
    // Pet holds each concrete type of the hierarchy Animal <- Dog, Animal <- Bird (abstract) <- Parrot:
    // the result and a ReadContact afterwards (the stored contact) must hold an instance of the class
    // sent, with every field of it and of its bases, so a derived value read back as its base fails.
    // The proxy is passed as object: a call with a dynamic argument is bound at run time, and C# allows no
    // lambda in such a call.
    static void PolymorphicOperation(object proxy, string id)
    {
        PetCheck(proxy, "a Dog", id + "-dog", "Dog", pet =>
        {
            pet.Name = "Rex & <Co>";
            pet.Barks = 3;
        }, pet =>
        {
            Eq("Pet.Name", "Rex & <Co>", (string)pet.Name);
            Eq("Pet.Barks", 3, (int)pet.Barks);
        });
        PetCheck(proxy, "a Parrot (derived from the abstract Bird)", id + "-parrot", "Parrot", pet =>
        {
            pet.Name = "Polly";
            pet.Wings = 2;
            pet.Words = "hello, world";
        }, pet =>
        {
            Eq("Pet.Name", "Polly", (string)pet.Name);
            Eq("Pet.Wings", 2, (int)pet.Wings);
            Eq("Pet.Words", "hello, world", (string)pet.Words);
        });
        PetCheck(proxy, "the base Animal itself", id + "-animal", "Animal", pet =>
        {
            pet.Name = "Generic";
        }, pet =>
        {
            Eq("Pet.Name", "Generic", (string)pet.Name);
        });
    }

    // PetCheck sends a Contact with a new petClass (filled by fill) in Pet to SavePolymorphicContact,
    // then reads the contact back with ReadContact; each answer must hold a petClass that expect accepts.
    static void PetCheck(object proxy, string what, string id, string petClass, Action<dynamic> fill, Action<dynamic> expect)
    {
        dynamic svc = proxy;
        Check("SavePolymorphicContact with " + what + " in Pet: the result and ReadContact hold it, type and fields", () =>
        {
            dynamic contact = NewProxyType(proxy, "Contact");
            contact.Id = id;
            contact.AccountId = "acct-" + id;
            contact.FirstName = "Pat";
            contact.LastName = "Owner";
            contact.EmailAddress = id + "@example.com";
            contact.RoleIds = new string[] { "role-a", "role-b" };
            dynamic pet = NewProxyType(proxy, petClass);
            fill(pet);
            contact.Pet = pet;
            ExpectPetContact("result", svc.SavePolymorphicContact(contact), id, petClass, expect);
            ExpectPetContact("ReadContact", svc.ReadContact(id), id, petClass, expect);
        });
    }

    static void ExpectPetContact(string from, dynamic got, string id, string petClass, Action<dynamic> expect)
    {
        if (got == null) throw new Exception(from + ": no Contact");
        Eq(from + " Id", id, (string)got.Id);
        Eq(from + " AccountId", "acct-" + id, (string)got.AccountId);
        Eq(from + " FirstName", "Pat", (string)got.FirstName);
        Eq(from + " LastName", "Owner", (string)got.LastName);
        Eq(from + " EmailAddress", id + "@example.com", (string)got.EmailAddress);
        Eq(from + " RoleIds", "role-a,role-b", got.RoleIds == null ? null : string.Join(",", (string[])got.RoleIds));
        object pet = got.Pet;
        if (pet == null) throw new Exception(from + ": Pet is null");
        Eq(from + " Pet's class", petClass, pet.GetType().Name);
        expect(pet);
    }

    // NewProxyType creates an instance of the proxy's own class of that name (each proxy namespace has
    // its own Contact, Dog, ...).
    static object NewProxyType(object proxy, string name)
    {
        Type proxyClass = proxy.GetType();
        Type t = proxyClass.Assembly.GetType(proxyClass.Namespace + "." + name, true);
        return Activator.CreateInstance(t);
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
