// Java client of the patched contract: run.sh builds a server with the contract-evolution patches
// tools/interop/patches lists, imports its ?WSDL with JAX-WS wsimport -XadditionalHeaders, plainly into
// package org.contactsync.interop.patched.soap11 and with -extension into .soap12 (as for Client.java),
// compiles both with this file, and runs `java PatchedClient BINDING ID` once per binding. Every call
// goes through the generated port:
//   13-header-op  greet(name, CallerHeader, Holder<TraceHeader>): -XadditionalHeaders maps the In header
//                 to a parameter and the Out header to a Holder (without it, wsimport leaves both out).
//   09-out-ref    splitContactName(id, Holder<Integer> calls, Holder<String> result, Holder<String> lastName).
//   15-polymorphic-contact  savePolymorphicContact(Contact): Contact's pet is an Animal, and wsimport
//                 generates Animal's derived classes Dog and Parrot (through the abstract Bird) with
//                 @XmlSeeAlso, so a Dog or a Parrot in pet goes out with xsi:type and comes back as that
//                 class.
//
// Each binding is wrapped in an Ops of lambdas over its generated port, so the scenario is written once;
// a contact with a pet crosses into and out of each binding's classes through PetContact.

import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import javax.xml.ws.BindingProvider;
import javax.xml.ws.Holder;
import javax.xml.ws.soap.SOAPFaultException;

public class PatchedClient {
    // Greeted is what greet returns: the result and the Out header's fields (null when it is absent).
    record Greeted(String result, boolean traced, String requestId, int step) {}

    // Split is what splitContactName returns: the result, the out and the ref parameter.
    record Split(String result, String lastName, int calls) {}

    // Names are a created contact's first and last name.
    record Names(String firstName, String lastName) {}

    interface SplitCall {
        Split call(String id, int calls);
    }

    // Pet is a value of the hierarchy Animal <- Dog, Animal <- Bird (abstract) <- Parrot, independent of the
    // binding: type is its class's simple name (the class the client created, or the one JAXB read back),
    // and each field is there only in the types that have it (barks: Dog; wings: Bird; words: Parrot).
    record Pet(String type, String name, int barks, int wings, String words) {}

    // PetContact is a Contact with a pet, the fields the polymorphic checks send and compare.
    record PetContact(String id, String accountId, String firstName, String lastName, String emailAddress,
            List<String> roleIds, Pet pet) {}

    record Ops(BiFunction<String, String, Greeted> greet, SplitCall splitContactName,
            Function<String, Names> testCreateContact,
            Function<PetContact, PetContact> savePolymorphicContact, Function<String, PetContact> readContact) {}

    static String label;
    static int failed;

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: java PatchedClient soap11|soap12 ID");
            System.exit(2);
        }
        String binding = args[0], id = args[1];
        label = "java-patched/" + binding;
        Ops ops;
        switch (binding) {
            case "soap11" -> {
                var port = new org.contactsync.interop.patched.soap11.SyncService().getSyncServiceSoap();
                timeouts(port);
                ops = new Ops((name, caller) -> {
                    org.contactsync.interop.patched.soap11.CallerHeader h = null;
                    if (caller != null) {
                        h = new org.contactsync.interop.patched.soap11.CallerHeader();
                        h.setCaller(caller);
                    }
                    var trace = new Holder<org.contactsync.interop.patched.soap11.TraceHeader>();
                    String result = port.greet(name, h, trace);
                    var t = trace.value;
                    return new Greeted(result, t != null, t == null ? null : t.getRequestId(), t == null ? 0 : t.getStep());
                }, (cid, calls) -> {
                    var c = new Holder<>(calls);
                    var result = new Holder<String>();
                    var lastName = new Holder<String>();
                    port.splitContactName(cid, c, result, lastName);
                    return new Split(result.value, lastName.value, c.value);
                }, cid -> {
                    var c = port.testCreateContact(cid);
                    return new Names(c.getFirstName(), c.getLastName());
                }, c -> fromSoap11(port.savePolymorphicContact(toSoap11(c))), cid -> fromSoap11(port.readContact(cid)));
            }
            case "soap12" -> {
                var port = new org.contactsync.interop.patched.soap12.SyncService().getSyncServiceSoap12();
                timeouts(port);
                ops = new Ops((name, caller) -> {
                    org.contactsync.interop.patched.soap12.CallerHeader h = null;
                    if (caller != null) {
                        h = new org.contactsync.interop.patched.soap12.CallerHeader();
                        h.setCaller(caller);
                    }
                    var trace = new Holder<org.contactsync.interop.patched.soap12.TraceHeader>();
                    String result = port.greet(name, h, trace);
                    var t = trace.value;
                    return new Greeted(result, t != null, t == null ? null : t.getRequestId(), t == null ? 0 : t.getStep());
                }, (cid, calls) -> {
                    var c = new Holder<>(calls);
                    var result = new Holder<String>();
                    var lastName = new Holder<String>();
                    port.splitContactName(cid, c, result, lastName);
                    return new Split(result.value, lastName.value, c.value);
                }, cid -> {
                    var c = port.testCreateContact(cid);
                    return new Names(c.getFirstName(), c.getLastName());
                }, c -> fromSoap12(port.savePolymorphicContact(toSoap12(c))), cid -> fromSoap12(port.readContact(cid)));
            }
            default -> throw new IllegalArgumentException("unknown binding " + binding);
        }
        headerOperation(ops, id);
        outRefOperation(ops, binding, id);
        polymorphicOperation(ops, id);
        System.exit(failed == 0 ? 0 : 1);
    }

    static void timeouts(Object port) {
        Map<String, Object> ctx = ((BindingProvider) port).getRequestContext();
        ctx.put("com.sun.xml.ws.connect.timeout", 10000);
        ctx.put("com.sun.xml.ws.request.timeout", 30000);
    }

    // headerOperation calls 13-header-op's Greet with and without its In header and reads the Out header.
    static void headerOperation(Ops ops, String id) {
        String name = "Ann " + id;
        check("Greet with the In header CallerHeader: result and Out header TraceHeader", () -> {
            Greeted g = ops.greet().apply(name, "bob & <co>");
            eq("result", "Hello " + name + " from bob & <co>", g.result());
            expectTrace(g, name);
        });
        check("Greet without the In header: result and Out header TraceHeader", () -> {
            Greeted g = ops.greet().apply(name + "-2", null);
            eq("result", "Hello " + name + "-2 from nobody", g.result());
            expectTrace(g, name + "-2");
        });
    }

    static void expectTrace(Greeted g, String name) {
        expect("a TraceHeader in the response", g.traced());
        eq("TraceHeader.RequestId", "greet-" + name, g.requestId());
        eq("TraceHeader.Step", 1, g.step());
    }

    // outRefOperation calls 09-out-ref's SplitContactName on a contact TestCreateContact stores: the
    // result, the out parameter and the ref parameter all come back; a missing contact is a fault.
    static void outRefOperation(Ops ops, String binding, String id) {
        check("SplitContactName: result, out lastName, ref calls", () -> {
            Names created = ops.testCreateContact().apply(id);
            Split s = ops.splitContactName().call(id, 4);
            eq("result", created.firstName(), s.result());
            eq("out lastName", created.lastName(), s.lastName());
            eq("ref calls", 5, s.calls());
        });
        check("SplitContactName of a missing contact is NotFound", () -> {
            try {
                ops.splitContactName().call(id + "-missing", 1);
            } catch (SOAPFaultException e) {
                var f = e.getFault();
                eq("fault code", binding.equals("soap12") ? "Sender" : "Client", f.getFaultCodeAsQName().getLocalPart());
                eq("fault string", "Contact \"" + id + "-missing\" does not exist.", f.getFaultString());
                return;
            }
            throw new AssertionError("SplitContactName succeeded for a missing contact");
        });
    }

    // polymorphicOperation calls 15-polymorphic-contact's SavePolymorphicContact with a whole Contact whose
    // pet holds each concrete type of the hierarchy Animal <- Dog, Animal <- Bird (abstract) <- Parrot:
    // the result and a ReadContact afterwards (the stored contact) must hold an instance of the class
    // sent, with every field of it and of its bases, so a derived value read back as its base fails.
    static void polymorphicOperation(Ops ops, String id) {
        petCheck(ops, "a Dog", id + "-dog", new Pet("Dog", "Rex & <Co>", 3, 0, null));
        petCheck(ops, "a Parrot (derived from the abstract Bird)", id + "-parrot", new Pet("Parrot", "Polly", 0, 2, "hello, world"));
        petCheck(ops, "the base Animal itself", id + "-animal", new Pet("Animal", "Generic", 0, 0, null));
    }

    static void petCheck(Ops ops, String what, String id, Pet pet) {
        check("SavePolymorphicContact with " + what + " in Pet: the result and ReadContact hold it, type and fields", () -> {
            var sent = new PetContact(id, "acct-" + id, "Pat", "Owner", id + "@example.com", List.of("role-a", "role-b"), pet);
            // Records compare every component, the pet's type and fields included.
            eq("result", sent, ops.savePolymorphicContact().apply(sent));
            eq("ReadContact", sent, ops.readContact().apply(id));
        });
    }

    // toSoap11 makes the soap11 classes' Contact of c, its pet a new instance of the class c.pet().type() names.
    static org.contactsync.interop.patched.soap11.Contact toSoap11(PetContact c) {
        var contact = new org.contactsync.interop.patched.soap11.Contact();
        contact.setId(c.id());
        contact.setAccountId(c.accountId());
        contact.setFirstName(c.firstName());
        contact.setLastName(c.lastName());
        contact.setEmailAddress(c.emailAddress());
        var roles = new org.contactsync.interop.patched.soap11.ArrayOfString();
        roles.getString().addAll(c.roleIds());
        contact.setRoleIds(roles);
        Pet p = c.pet();
        org.contactsync.interop.patched.soap11.Animal pet = switch (p.type()) {
            case "Dog" -> {
                var dog = new org.contactsync.interop.patched.soap11.Dog();
                dog.setBarks(p.barks());
                yield dog;
            }
            case "Parrot" -> {
                var parrot = new org.contactsync.interop.patched.soap11.Parrot();
                parrot.setWings(p.wings());
                parrot.setWords(p.words());
                yield parrot;
            }
            case "Animal" -> new org.contactsync.interop.patched.soap11.Animal();
            default -> throw new IllegalArgumentException("no pet class " + p.type());
        };
        pet.setName(p.name());
        contact.setPet(pet);
        return contact;
    }

    // fromSoap11 reads a soap11 Contact back into a PetContact, its pet's type the class JAXB created.
    static PetContact fromSoap11(org.contactsync.interop.patched.soap11.Contact c) {
        if (c == null) return null;
        Pet pet = null;
        org.contactsync.interop.patched.soap11.Animal a = c.getPet();
        if (a != null) {
            int barks = a instanceof org.contactsync.interop.patched.soap11.Dog d ? d.getBarks() : 0;
            int wings = a instanceof org.contactsync.interop.patched.soap11.Bird b ? b.getWings() : 0;
            String words = a instanceof org.contactsync.interop.patched.soap11.Parrot p ? p.getWords() : null;
            pet = new Pet(a.getClass().getSimpleName(), a.getName(), barks, wings, words);
        }
        List<String> roles = c.getRoleIds() == null ? null : List.copyOf(c.getRoleIds().getString());
        return new PetContact(c.getId(), c.getAccountId(), c.getFirstName(), c.getLastName(), c.getEmailAddress(), roles, pet);
    }

    // toSoap12 makes the soap12 classes' Contact of c, its pet a new instance of the class c.pet().type() names.
    static org.contactsync.interop.patched.soap12.Contact toSoap12(PetContact c) {
        var contact = new org.contactsync.interop.patched.soap12.Contact();
        contact.setId(c.id());
        contact.setAccountId(c.accountId());
        contact.setFirstName(c.firstName());
        contact.setLastName(c.lastName());
        contact.setEmailAddress(c.emailAddress());
        var roles = new org.contactsync.interop.patched.soap12.ArrayOfString();
        roles.getString().addAll(c.roleIds());
        contact.setRoleIds(roles);
        Pet p = c.pet();
        org.contactsync.interop.patched.soap12.Animal pet = switch (p.type()) {
            case "Dog" -> {
                var dog = new org.contactsync.interop.patched.soap12.Dog();
                dog.setBarks(p.barks());
                yield dog;
            }
            case "Parrot" -> {
                var parrot = new org.contactsync.interop.patched.soap12.Parrot();
                parrot.setWings(p.wings());
                parrot.setWords(p.words());
                yield parrot;
            }
            case "Animal" -> new org.contactsync.interop.patched.soap12.Animal();
            default -> throw new IllegalArgumentException("no pet class " + p.type());
        };
        pet.setName(p.name());
        contact.setPet(pet);
        return contact;
    }

    // fromSoap12 reads a soap12 Contact back into a PetContact, its pet's type the class JAXB created.
    static PetContact fromSoap12(org.contactsync.interop.patched.soap12.Contact c) {
        if (c == null) return null;
        Pet pet = null;
        org.contactsync.interop.patched.soap12.Animal a = c.getPet();
        if (a != null) {
            int barks = a instanceof org.contactsync.interop.patched.soap12.Dog d ? d.getBarks() : 0;
            int wings = a instanceof org.contactsync.interop.patched.soap12.Bird b ? b.getWings() : 0;
            String words = a instanceof org.contactsync.interop.patched.soap12.Parrot p ? p.getWords() : null;
            pet = new Pet(a.getClass().getSimpleName(), a.getName(), barks, wings, words);
        }
        List<String> roles = c.getRoleIds() == null ? null : List.copyOf(c.getRoleIds().getString());
        return new PetContact(c.getId(), c.getAccountId(), c.getFirstName(), c.getLastName(), c.getEmailAddress(), roles, pet);
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
}
