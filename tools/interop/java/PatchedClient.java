// Java client of the patched contract: run.sh builds a server with the contract-evolution patches
// tools/interop/patches lists, imports its ?WSDL with JAX-WS wsimport -XadditionalHeaders, plainly into
// package org.contactsync.interop.patched.soap11 and with -extension into .soap12 (as for Client.java),
// compiles both with this file, and runs `java PatchedClient BINDING ID` once per binding. Every call
// goes through the generated port:
//   13-header-op  greet(name, CallerHeader, Holder<TraceHeader>): -XadditionalHeaders maps the In header
//                 to a parameter and the Out header to a Holder (without it, wsimport leaves both out).
//   09-out-ref    splitContactName(id, Holder<Integer> calls, Holder<String> result, Holder<String> lastName).
//
// Each binding is wrapped in an Ops of lambdas over its generated port, so the scenario is written once.

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

    record Ops(BiFunction<String, String, Greeted> greet, SplitCall splitContactName,
            Function<String, Names> testCreateContact) {}

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
                });
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
                });
            }
            default -> throw new IllegalArgumentException("unknown binding " + binding);
        }
        headerOperation(ops, id);
        outRefOperation(ops, binding, id);
        // Issue 33: the polymorphic-Contact patch (15-*) adds its checks here: send a derived value
        // and read it back, asserting its type and every field.
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
