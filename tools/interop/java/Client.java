// Java interop client. run.sh imports the live ?WSDL twice with JAX-WS wsimport: plainly into package
// org.contactsync.interop.soap11 (wsimport keeps only the SOAP 1.1 port then), and with -extension
// into org.contactsync.interop.soap12 (which adds the SOAP 1.2 port); it compiles both with this file
// and runs `java Client BINDING ID` once per binding.
//
// Each binding is wrapped in an Ops of method references to its generated port, so the scenario is
// written once; every call goes through the generated port.

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import javax.xml.namespace.QName;
import javax.xml.soap.Detail;
import javax.xml.soap.SOAPFault;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.soap.SOAPFaultException;

public class Client {
    record Ops(IntSupplier versionMajor, IntSupplier versionMinor, Supplier<String> version,
            Function<String, Object> testCreateContact, Function<String, Object> testUpdateContact,
            Function<String, Object> deleteContact, Function<String, Object> readContact) {}

    static String label;
    static int failed;

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: java Client soap11|soap12 ID");
            System.exit(2);
        }
        String binding = args[0], id = args[1];
        label = "java/" + binding;
        Ops ops;
        switch (binding) {
            case "soap11" -> {
                var port = new org.contactsync.interop.soap11.SyncService().getSyncServiceSoap();
                timeouts(port);
                ops = new Ops(port::versionMajor, port::versionMinor, port::version, port::testCreateContact,
                        port::testUpdateContact, port::deleteContact, port::readContact);
            }
            case "soap12" -> {
                var port = new org.contactsync.interop.soap12.SyncService().getSyncServiceSoap12();
                timeouts(port);
                ops = new Ops(port::versionMajor, port::versionMinor, port::version, port::testCreateContact,
                        port::testUpdateContact, port::deleteContact, port::readContact);
            }
            default -> throw new IllegalArgumentException("unknown binding " + binding);
        }
        scenario(ops, binding, id);
        System.exit(failed == 0 ? 0 : 1);
    }

    static void timeouts(Object port) {
        Map<String, Object> ctx = ((BindingProvider) port).getRequestContext();
        ctx.put("com.sun.xml.ws.connect.timeout", 10000);
        ctx.put("com.sun.xml.ws.request.timeout", 30000);
    }

    static void scenario(Ops svc, String binding, String id) {
        check("VersionMajor", () -> eq("result", 1, svc.versionMajor().getAsInt()));
        check("VersionMinor", () -> eq("result", 0, svc.versionMinor().getAsInt()));
        check("Version", () -> eq("result", "1.0", svc.version().get()));

        Rec[] created = {null}, updated = {null};
        check("TestCreateContact", () -> {
            created[0] = Rec.of(svc.testCreateContact().apply(id));
            created[0].expectCreated(id);
        });
        check("ReadContact equals created", () -> Rec.of(svc.readContact().apply(id)).expectEqual(created[0]));
        check("TestUpdateContact", () -> {
            updated[0] = Rec.of(svc.testUpdateContact().apply(id));
            updated[0].expectUpdateOf(created[0]);
        });
        check("ReadContact equals updated", () -> Rec.of(svc.readContact().apply(id)).expectEqual(updated[0]));
        check("DeleteContact returns updated", () -> Rec.of(svc.deleteContact().apply(id)).expectEqual(updated[0]));
        check("ReadContact after delete is NotFound", () -> {
            try {
                svc.readContact().apply(id);
            } catch (SOAPFaultException e) {
                SOAPFault f = e.getFault();
                eq("fault code", binding.equals("soap12") ? "Sender" : "Client", f.getFaultCodeAsQName().getLocalPart());
                if (binding.equals("soap12")) {
                    Iterator<QName> sub = f.getFaultSubcodes();
                    eq("fault subcode", "NotFound", sub.hasNext() ? sub.next().getLocalPart() : null);
                }
                String want = "Contact \"" + id + "\" does not exist.";
                eq("fault string", want, f.getFaultString());
                // JAX-WS RI wraps the fault string: "Client received SOAP Fault from server: ... Please see
                // the server log to find more detail regarding exact cause of the failure."
                expect("exception message containing " + show(want), e.getMessage().contains(want));
                Detail d = f.getDetail();
                eq("fault detail ErrorCode", "NotFound", d == null ? null : d.getTextContent().trim());
                return;
            }
            throw new AssertionError("ReadContact succeeded after DeleteContact");
        });
    }

    interface Body {
        void run() throws Exception;
    }

    static void check(String name, Body body) {
        try {
            body.run();
            System.out.println("PASS " + label + " " + name);
        } catch (Throwable e) {
            failed++;
            String msg = String.valueOf(e.getMessage()).replace('\r', ' ').replace('\n', ' ');
            System.out.println("FAIL " + label + " " + name + ": " + e.getClass().getSimpleName() + ": " + msg);
        }
    }

    static void eq(String what, Object want, Object got) {
        if (want == null ? got != null : !want.equals(got)) {
            throw new AssertionError(what + ": got " + show(got) + ", want " + show(want));
        }
    }

    static void expect(String what, boolean ok) {
        if (!ok) throw new AssertionError("want " + what);
    }

    static String show(Object o) {
        return o == null ? "null" : "\"" + o + "\"";
    }

    // Rec is a port-independent copy of a generated Contact: every field, RoleIds as a list.
    record Rec(String id, String accountId, String firstName, String lastName, String phoneMobile,
            String phoneWork, String emailAddress, List<String> roleIds) {

        // The two packages' Contact classes have the same getters; read them by name.
        static Rec of(Object c) throws Exception {
            if (c == null) throw new AssertionError("no Contact in the response");
            Object roles = get(c, "getRoleIds");
            @SuppressWarnings("unchecked")
            List<String> ids = roles == null ? null : new ArrayList<>((List<String>) get(roles, "getString"));
            return new Rec((String) get(c, "getId"), (String) get(c, "getAccountId"), (String) get(c, "getFirstName"),
                    (String) get(c, "getLastName"), (String) get(c, "getPhoneMobile"), (String) get(c, "getPhoneWork"),
                    (String) get(c, "getEmailAddress"), ids);
        }

        static Object get(Object o, String getter) throws Exception {
            Method m = o.getClass().getMethod(getter);
            return m.invoke(o);
        }

        void expectEqual(Rec want) {
            if (want == null) throw new AssertionError("nothing to compare with: an earlier step failed");
            if (!equals(want)) throw new AssertionError("got " + this + ", want " + want);
        }

        void expectCreated(String wantId) {
            eq("Id", wantId, id);
            expect("AccountId ACC-xxxxxxxx", accountId != null && accountId.startsWith("ACC-") && accountId.length() == 12);
            eq("FirstName", "Test", firstName);
            expect("LastName Contact xxxxxx", lastName != null && lastName.startsWith("Contact ") && lastName.length() == 14);
            expect("PhoneMobile non-empty", phoneMobile != null && !phoneMobile.isEmpty());
            expect("PhoneWork non-empty", phoneWork != null && !phoneWork.isEmpty());
            expect("EmailAddress test.xxxxxxxx@example.com",
                    emailAddress != null && emailAddress.startsWith("test.") && emailAddress.endsWith("@example.com"));
            expect("RoleIds [role-user, role-xxxx]", roleIds != null && roleIds.size() == 2
                    && roleIds.get(0).equals("role-user") && roleIds.get(1).startsWith("role-"));
        }

        void expectUpdateOf(Rec c) {
            if (c == null) throw new AssertionError("nothing to compare with: an earlier step failed");
            eq("Id", c.id, id);
            eq("AccountId", c.accountId, accountId);
            eq("FirstName", "Updated", firstName);
            eq("LastName", c.lastName, lastName);
            eq("PhoneMobile", c.phoneMobile, phoneMobile);
            expect("PhoneWork changed", phoneWork != null && !phoneWork.isEmpty() && !phoneWork.equals(c.phoneWork));
            eq("EmailAddress", "updated." + c.emailAddress.substring("test.".length()), emailAddress);
            List<String> want = new ArrayList<>(c.roleIds);
            want.add("role-updated");
            eq("RoleIds", want, roleIds);
        }

        void expect(String what, boolean ok) {
            if (!ok) throw new AssertionError("want " + what + " in " + this);
        }
    }
}
