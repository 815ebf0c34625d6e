// .NET (Mono) interop client. run.sh generates the four proxies from the live ?WSDL with Mono's
// `wsdl` tool (/protocol:SOAP, SOAP12, HttpGet, HttpPost, each into its own namespace), compiles them
// with this file, and runs `mono client.exe BINDING ID` once per binding; for the authenticated run,
// `mono client.exe BINDING ID URL USER PASSWORD` runs AuthScenario against the server at URL.
//
// The scenario is written once against `dynamic`, because each proxy has its own Contact type; every
// call still goes through the generated proxy class.
using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Web.Services.Protocols;

static class Client
{
    static string label;
    static int failed;

    static int Main(string[] args)
    {
        if (args.Length != 2 && args.Length != 5)
        {
            Console.Error.WriteLine("usage: client.exe soap11|soap12|httpget|httppost ID [URL USER PASSWORD]");
            return 2;
        }
        string binding = args[0], id = args[1];
        label = "dotnet/" + binding;
        dynamic svc;
        switch (binding)
        {
            case "soap11": svc = new ContactSync.SOAP.SyncService(); break;
            case "soap12": svc = new ContactSync.SOAP12.SyncService(); break;
            case "httpget": svc = new ContactSync.HttpGet.SyncService(); break;
            case "httppost": svc = new ContactSync.HttpPost.SyncService(); break;
            default: Console.Error.WriteLine("unknown binding " + binding); return 2;
        }
        svc.Timeout = 30000;
        if (args.Length == 5)
        {
            label = "dotnet-auth/" + binding;
            AuthScenario(svc, args[2], args[3], args[4], id);
        }
        else
            Scenario(svc, binding, id);
        return failed == 0 ? 0 : 1;
    }

    static void Scenario(dynamic svc, string binding, string id)
    {
        Check("VersionMajor", () => Eq("result", 1, (int)svc.VersionMajor()));
        Check("VersionMinor", () => Eq("result", 0, (int)svc.VersionMinor()));
        Check("Version", () => Eq("result", "1.0", (string)svc.Version()));

        Record created = null, updated = null;
        Check("TestCreateContact", () =>
        {
            created = Record.From(svc.TestCreateContact(id));
            created.ExpectCreated(id);
        });
        Check("ReadContact equals created", () => Record.From(svc.ReadContact(id)).ExpectEqual(created));
        Check("TestUpdateContact", () =>
        {
            updated = Record.From(svc.TestUpdateContact(id));
            updated.ExpectUpdateOf(created);
        });
        Check("ReadContact equals updated", () => Record.From(svc.ReadContact(id)).ExpectEqual(updated));
        Check("DeleteContact returns updated", () => Record.From(svc.DeleteContact(id)).ExpectEqual(updated));
        Check("ReadContact after delete is NotFound", () =>
        {
            string want = "Contact \"" + id + "\" does not exist.";
            try
            {
                svc.ReadContact(id);
            }
            catch (SoapException e)
            {
                if (binding.StartsWith("http")) throw new Exception("SoapException on an HTTP binding: " + e.Message);
                Eq("fault code", binding == "soap12" ? "Sender" : "Client", e.Code.Name);
                if (binding == "soap12")
                    Eq("fault subcode", "NotFound", e.SubCode == null ? null : e.SubCode.Code.Name);
                Eq("fault message", want, e.Message);
                string detail = e.Detail == null ? "" : e.Detail.InnerText;
                Eq("fault detail ErrorCode", "NotFound", detail.Trim());
                return;
            }
            catch (WebException e)
            {
                if (!binding.StartsWith("http")) throw;
                var resp = e.Response as HttpWebResponse;
                if (resp == null) throw;
                Eq("HTTP status", 404, (int)resp.StatusCode);
                string body;
                using (var r = new StreamReader(resp.GetResponseStream())) body = r.ReadToEnd();
                Eq("body", want, body.Trim());
                return;
            }
            throw new Exception("ReadContact succeeded after DeleteContact");
        });
    }

    // AuthScenario runs against a server with authentication on, through the same generated proxy with
    // Credentials set, as .NET users do: the proxy sends no credentials first, gets 401 with a Basic
    // challenge, and retries with HTTP Basic.
    static void AuthScenario(dynamic svc, string url, string user, string password, string id)
    {
        svc.Url = url;
        svc.Credentials = new NetworkCredential(user, password);
        Record created = null;
        Check("TestCreateContact with Credentials", () =>
        {
            created = Record.From(svc.TestCreateContact(id));
            created.ExpectCreated(id);
        });
        Check("ReadContact with Credentials", () => Record.From(svc.ReadContact(id)).ExpectEqual(created));
        Check("wrong password is refused with 401", () =>
        {
            dynamic wrong = Activator.CreateInstance(svc.GetType());
            wrong.Url = url;
            wrong.Credentials = new NetworkCredential(user, password + "-wrong");
            Expect401(() => wrong.ReadContact(id));
        });
        Check("no credentials get 401 with a Basic challenge", () =>
        {
            dynamic anonymous = Activator.CreateInstance(svc.GetType());
            anonymous.Url = url;
            var challenge = Expect401(() => anonymous.VersionMajor());
            Eq("WWW-Authenticate", "Basic realm=\"contactsync\", charset=\"UTF-8\"", challenge);
        });
    }

    // Expect401 runs call, expects it to fail with HTTP 401, and returns the WWW-Authenticate header.
    // The error response is closed here: Mono aborts at exit (SIGABRT in its thread pool) when a
    // WebException's response is left open with its connection still reading.
    static string Expect401(Action call)
    {
        try
        {
            call();
        }
        catch (WebException e)
        {
            var resp = e.Response as HttpWebResponse;
            if (resp == null) throw;
            using (resp)
            {
                Eq("HTTP status", 401, (int)resp.StatusCode);
                return resp.Headers["WWW-Authenticate"];
            }
        }
        throw new Exception("the call succeeded");
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
            Console.WriteLine("FAIL " + label + " " + name + ": " + e.GetType().Name + ": " + OneLine(e.Message));
        }
    }

    static string OneLine(string s) { return (s ?? "").Replace("\r", " ").Replace("\n", " "); }

    static void Eq<T>(string what, T want, T got)
    {
        if (!Equals(want, got)) throw new Exception(what + ": got " + Show(got) + ", want " + Show(want));
    }

    static string Show(object o) { return o == null ? "null" : "\"" + o + "\""; }

    // Record is a proxy-independent copy of a Contact, every field, RoleIds as a list.
    class Record
    {
        public string Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress;
        public string[] RoleIds;

        public static Record From(dynamic c)
        {
            if (c == null) throw new Exception("no Contact in the response");
            return new Record
            {
                Id = c.Id, AccountId = c.AccountId, FirstName = c.FirstName, LastName = c.LastName,
                PhoneMobile = c.PhoneMobile, PhoneWork = c.PhoneWork, EmailAddress = c.EmailAddress,
                RoleIds = c.RoleIds == null ? null : ((string[])c.RoleIds).ToArray(),
            };
        }

        public override string ToString()
        {
            return string.Format("{{Id={0} AccountId={1} FirstName={2} LastName={3} PhoneMobile={4} PhoneWork={5} EmailAddress={6} RoleIds=[{7}]}}",
                Id, AccountId, FirstName, LastName, PhoneMobile, PhoneWork, EmailAddress,
                RoleIds == null ? "null" : string.Join(",", RoleIds));
        }

        public void ExpectEqual(Record want)
        {
            if (want == null) throw new Exception("nothing to compare with: an earlier step failed");
            if (ToString() != want.ToString()) throw new Exception("got " + this + ", want " + want);
        }

        public void ExpectCreated(string id)
        {
            Eq("Id", id, Id);
            Expect("AccountId ACC-xxxxxxxx", AccountId != null && AccountId.StartsWith("ACC-") && AccountId.Length == 12);
            Eq("FirstName", "Test", FirstName);
            Expect("LastName Contact xxxxxx", LastName != null && LastName.StartsWith("Contact ") && LastName.Length == 14);
            Expect("PhoneMobile non-empty", !string.IsNullOrEmpty(PhoneMobile));
            Expect("PhoneWork non-empty", !string.IsNullOrEmpty(PhoneWork));
            Expect("EmailAddress test.xxxxxxxx@example.com", EmailAddress != null && EmailAddress.StartsWith("test.") && EmailAddress.EndsWith("@example.com"));
            Expect("RoleIds [role-user, role-xxxx]", RoleIds != null && RoleIds.Length == 2 && RoleIds[0] == "role-user" && RoleIds[1].StartsWith("role-"));
        }

        public void ExpectUpdateOf(Record c)
        {
            if (c == null) throw new Exception("nothing to compare with: an earlier step failed");
            Eq("Id", c.Id, Id);
            Eq("AccountId", c.AccountId, AccountId);
            Eq("FirstName", "Updated", FirstName);
            Eq("LastName", c.LastName, LastName);
            Eq("PhoneMobile", c.PhoneMobile, PhoneMobile);
            Expect("PhoneWork changed", !string.IsNullOrEmpty(PhoneWork) && PhoneWork != c.PhoneWork);
            Eq("EmailAddress", "updated." + c.EmailAddress.Substring("test.".Length), EmailAddress);
            Eq("RoleIds", string.Join(",", c.RoleIds) + ",role-updated", RoleIds == null ? null : string.Join(",", RoleIds));
        }

        void Expect(string what, bool ok)
        {
            if (!ok) throw new Exception("want " + what + " in " + this);
        }
    }
}
