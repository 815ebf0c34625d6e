package contractevo_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contactsync/contactsync/tools/contractevo/patching"
)

// python is the interpreter python3-zeep installs into (Debian's), as in tools/interop.
const python = "/usr/bin/python3"

// soapEncodingSchema is the SOAP encoding schema Debian's python3-xmlschema ships, which zeep_call.py
// serves to zeep for contracts with ASMX's AbstractTypes schema (see zeep_call.py).
const soapEncodingSchema = "/usr/lib/python3/dist-packages/xmlschema/schemas/WSDL/soap-encoding.xsd"

// patchTimeout bounds one patch end to end (copy, generate, two builds, serve, calls), from the moment
// it gets one of the patchSlots. A patch costs about 10 s of CPU on a warm build cache and took 20-35 s
// of wall time, two at a time, on a 2-core machine shared with other work (up to 100 s when that
// machine was heavily loaded).
const patchTimeout = 3 * time.Minute

// patchSlots bounds how many patches build and run at once: one per core, at least two. Each patch's
// go build already uses every core while it compiles, so more at once gains nothing and only costs
// memory; two on two cores overlap one patch's builds with the other's server calls, which mostly
// wait. It holds whatever -parallel says, so `go test -parallel 16` does not start sixteen builds.
var patchSlots = make(chan struct{}, max(2, runtime.GOMAXPROCS(0)))

// evolution is one contract patch and what the test checks once its service code is in.
type evolution struct {
	dir string // under testdata/patches/
	// op is the operation the patch adds, "" for a patch that only adds fields: then the build must
	// succeed before any service code is written.
	op string
	// bindings are the bindings the generated table must offer op on (soap11, soap12, get, post).
	bindings []string
	// check exercises the running service.
	check func(t *testing.T, s *scratch)
	// base, when set, is a patch (a directory under testdata/patches/) applied with its service code
	// before this one: the contract the data of before is written with. before runs on its build
	// (bin/contactsync), the server not started; the scratch copy's store (evo.db) and files stay for
	// check. A patch with a base may need no service code of its own.
	base   string
	before func(t *testing.T, s *scratch)
	// serveInCheck leaves starting the server to check (which expects serve to refuse first).
	serveInCheck bool
}

var evolutions = []evolution{
	{
		dir: "01-contact-fields",
		check: func(t *testing.T, s *scratch) {
			// The new fields are set by TestContact for every contact TestCreateContact stores; read
			// them over every binding that offers the contact operations.
			want := []string{
				"<Modified>2026-11-23T14:05:06.7+01:30</Modified>",
				"<Active>true</Active>",
				"<RoleCount>2</RoleCount>",
				`<Birthday xsi:nil="true" />`,
				"<Verified>true</Verified>",
				"<Score>20</Score>",
			}
			for _, b := range s.offered(t, "ReadContact") {
				id := "fields-" + b
				out := s.call(t, "TestCreateContact", b, "--id", id)
				for _, w := range want {
					assert.Contains(t, out, w, "TestCreateContact over %s", b)
				}
				out = s.call(t, "ReadContact", b, "--param", "id="+id)
				for _, w := range want {
					assert.Contains(t, out, w, "ReadContact over %s", b)
				}
			}
			// The JSON endpoint writes a dateTime as JavaScriptSerializer does, milliseconds since the
			// epoch (the offset is not kept), and a nil value as null.
			d, ok := s.callJSON(t, "TestCreateContact", "--id", "fields-json").(map[string]any)
			require.True(t, ok)
			assert.Equal(t, `/Date(1795437306700)/`, d["Modified"])
			assert.Equal(t, true, d["Active"])
			assert.EqualValues(t, 2, d["RoleCount"])
			assert.Contains(t, d, "Birthday")
			assert.Nil(t, d["Birthday"])
			assert.Equal(t, true, d["Verified"])
			assert.EqualValues(t, 20, d["Score"])
			// The raw HTTP GET result, as it is on the wire.
			status, body := s.http(t, http.MethodGet, "ReadContact", url.Values{"id": {"fields-soap11"}})
			require.Equal(t, http.StatusOK, status, body)
			for _, w := range want {
				assert.Contains(t, body, w)
			}
			for _, b := range s.offered(t, "TestCreateContact") {
				got := s.zeep(t, b, "TestCreateContact", map[string]any{"id": "fields-zeep-" + b})
				c, ok := got.(map[string]any)
				require.True(t, ok, "zeep result %v", got)
				assert.Equal(t, "2026-11-23T14:05:06.700000+01:30", c["Modified"], "zeep over %s", b)
				assert.Equal(t, true, c["Active"], "zeep over %s", b)
				assert.EqualValues(t, 2, c["RoleCount"], "zeep over %s", b)
				assert.Contains(t, c, "Birthday")
				assert.Nil(t, c["Birthday"], "zeep over %s", b)
				assert.Equal(t, true, c["Verified"], "zeep over %s", b)
				assert.EqualValues(t, 20, c["Score"], "zeep over %s", b)
			}
		},
	},
	{
		dir:      "02-countroles",
		op:       "CountRoles",
		bindings: []string{"soap11", "soap12", "get", "post"},
		check: func(t *testing.T, s *scratch) {
			s.call(t, "TestCreateContact", "soap11", "--id", "roles-1") // two roles
			for _, b := range s.offered(t, "CountRoles") {
				out := s.call(t, "CountRoles", b, "--param", "id=roles-1", "--param", "max=5")
				assert.Contains(t, out, "<CountRolesResult>2</CountRolesResult>", "over %s", b)
				out = s.call(t, "CountRoles", b, "--param", "max=1", "--param", "id=roles-1")
				assert.Contains(t, out, "<CountRolesResult>1</CountRolesResult>", "over %s", b)
				// The service's own error reaches the caller as on every other operation.
				out = s.callFault(t, "CountRoles", b, "--param", "id=roles-1", "--param", "max=-1")
				assert.Contains(t, out, "The parameter max must not be negative (got -1).", "over %s", b)
				out = s.callFault(t, "CountRoles", b, "--param", "id=nobody", "--param", "max=1")
				assert.Contains(t, out, `Contact "nobody" does not exist.`, "over %s", b)
			}
			assert.EqualValues(t, 2, s.callJSON(t, "CountRoles", "--param", "id=roles-1", "--param", "max=5"))
			for _, method := range []string{http.MethodGet, http.MethodPost} {
				status, body := s.http(t, method, "CountRoles", url.Values{"id": {"roles-1"}, "max": {"3"}})
				require.Equal(t, http.StatusOK, status, body)
				assert.Regexp(t, `<int [^>]*xmlns="`+regexp.QuoteMeta(s.namespace)+`">2</int>$`, body, method)
				// A bad value for the int parameter is a 400 naming it.
				status, body = s.http(t, method, "CountRoles", url.Values{"id": {"roles-1"}, "max": {"abc"}})
				assert.Equal(t, http.StatusBadRequest, status, body)
				assert.Contains(t, body, "max", method)
			}
			for _, b := range s.offered(t, "CountRoles") {
				got := s.zeep(t, b, "CountRoles", map[string]any{"id": "roles-1", "max": 5})
				assert.EqualValues(t, 2, got, "zeep over %s", b)
			}
		},
	},
	{
		dir:      "03-echocontact",
		op:       "EchoContact",
		bindings: []string{"soap11", "soap12"},
		check: func(t *testing.T, s *scratch) {
			file := filepath.Join(s.dir, "contact.xml")
			require.NoError(t, os.WriteFile(file, []byte(`<contact><Id>echo-1</Id><FirstName>Zoë &amp; &lt;Ann&gt;</FirstName>`+
				`<EmailAddress>zoe@example.com</EmailAddress><RoleIds><string>r1</string>`+
				`<string xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true" /><string /></RoleIds></contact>`), 0o600))
			for _, b := range s.offered(t, "EchoContact") {
				out := s.call(t, "EchoContact", b, "--param-file", "contact="+file)
				for _, w := range []string{
					"<Id>echo-1</Id>", "<FirstName>Zoë &amp; &lt;Ann&gt;</FirstName>",
					"<EmailAddress>zoe@example.com</EmailAddress>",
					// A nil item and an empty one stay apart both ways.
					"<string>r1</string>\n      <string xsi:nil=\"true\" />\n      <string />\n",
				} {
					assert.Contains(t, out, w, "over %s", b)
				}
			}
			// The JSON endpoint takes a complex parameter (as ASP.NET AJAX does); nil and empty items
			// stay apart there too.
			d, ok := s.callJSON(t, "EchoContact", "--param-file", "contact="+file).(map[string]any)
			require.True(t, ok)
			assert.Equal(t, "echo-1", d["Id"])
			assert.Equal(t, "Zoë & <Ann>", d["FirstName"])
			assert.Equal(t, []any{"r1", nil, ""}, d["RoleIds"])
			// HTTP GET and POST do not offer it (its parameter is complex): the service says it is
			// offered over SOAP only.
			for _, method := range []string{http.MethodGet, http.MethodPost} {
				status, body := s.http(t, method, "EchoContact", url.Values{"contact": {"x"}})
				assert.Equal(t, http.StatusNotFound, status, body)
				assert.Contains(t, body, `The operation "EchoContact" is offered over SOAP only (SOAP 1.1 and SOAP 1.2), not over HTTP `, method)
			}
			for _, b := range s.offered(t, "EchoContact") {
				in := map[string]any{"Id": "echo-z", "FirstName": "<&> \"q\" ü", "LastName": "Last",
					"RoleIds": map[string]any{"string": []any{"a", "b"}}}
				got := s.zeep(t, b, "EchoContact", map[string]any{"contact": in})
				c, ok := got.(map[string]any)
				require.True(t, ok, "zeep result %v", got)
				for k, v := range in {
					assert.Equal(t, v, c[k], "zeep over %s: %s", b, k)
				}
			}
		},
	},
	{
		// An operation with an In and an Out SOAP header (issue 32): call sends the In header with
		// --header and prints the Out one; zeep sends it as _soapheaders and reads the Out one; GET and
		// POST offer the operation without headers, as ASMX does.
		dir:      "13-header-op",
		op:       "Greet",
		bindings: []string{"soap11", "soap12", "get", "post"},
		check: func(t *testing.T, s *scratch) {
			for _, b := range s.offered(t, "Greet") {
				if b == "get" || b == "post" {
					out := s.call(t, "Greet", b, "--param", "name=Ann")
					assert.Contains(t, out, "Hello Ann from nobody", "over %s", b)
					assert.NotContains(t, out, "TraceHeader", "over %s", b)
					continue
				}
				out := s.call(t, "Greet", b, "--param", "name=Ann", "--header", "CallerHeader.Caller=bob & co")
				for _, w := range []string{"Hello Ann from bob &amp; co", "<TraceHeader", "<RequestId>greet-Ann</RequestId>"} {
					assert.Contains(t, out, w, "over %s", b)
				}
				got := s.zeep(t, b, "Greet", map[string]any{"name": "Zed", "_soapheaders": map[string]any{"CallerHeader": map[string]any{"Caller": "zoe"}}})
				m, ok := got.(map[string]any)
				require.True(t, ok, "zeep result %v", got)
				assert.Equal(t, "Hello Zed from zoe", m["body"].(map[string]any)["GreetResult"], "zeep over %s: %v", b, m)
				assert.Contains(t, fmt.Sprint(m["header"]), "greet-Zed", "zeep over %s reads the Out header", b)
			}
		},
	},
	{
		dir:      "04-testcreatecontacts",
		op:       "TestCreateContacts",
		bindings: []string{"soap11", "soap12", "get", "post"},
		check: func(t *testing.T, s *scratch) {
			for _, b := range s.offered(t, "TestCreateContacts") {
				out := s.call(t, "TestCreateContacts", b, "--param", "prefix=many-"+b, "--param", "count=3")
				assert.Equal(t, 3, strings.Count(out, "<Contact>"), "over %s: %s", b, out)
				for i := 1; i <= 3; i++ {
					assert.Contains(t, out, fmt.Sprintf("<Id>many-%s-%d</Id>", b, i), "over %s", b)
				}
				// They were stored.
				out = s.call(t, "ReadContact", "soap11", "--id", "many-"+b+"-3")
				assert.Contains(t, out, "<Id>many-"+b+"-3</Id>")
			}
			list, ok := s.callJSON(t, "TestCreateContacts", "--param", "prefix=json", "--param", "count=2").([]any)
			require.True(t, ok)
			require.Len(t, list, 2)
			for i, c := range list {
				c, ok := c.(map[string]any)
				require.True(t, ok)
				assert.Equal(t, fmt.Sprintf("json-%d", i+1), c["Id"])
			}
			// Over HTTP the result document's root is the global element ArrayOfContact.
			for _, method := range []string{http.MethodGet, http.MethodPost} {
				status, body := s.http(t, method, "TestCreateContacts", url.Values{"prefix": {"raw"}, "count": {"2"}})
				require.Equal(t, http.StatusOK, status, body)
				assert.Regexp(t, `^<\?xml version="1.0" encoding="utf-8"\?>\s*<ArrayOfContact [^>]*xmlns="`+regexp.QuoteMeta(s.namespace)+`"><Contact><Id>raw-1</Id>`, body, method)
				assert.Equal(t, 2, strings.Count(body, "<Contact>"), method)
				status, body = s.http(t, method, "TestCreateContacts", url.Values{"prefix": {"raw"}, "count": {"1.5"}})
				assert.Equal(t, http.StatusBadRequest, status, body)
				assert.Contains(t, body, "count", method)
			}
			for _, b := range s.offered(t, "TestCreateContacts") {
				got := s.zeep(t, b, "TestCreateContacts", map[string]any{"prefix": "zeep-" + b, "count": 2})
				// zeep unwraps ArrayOfContact, a sequence of one repeated element, to the list itself on
				// SOAP; over HTTP it returns the ArrayOfContact element, whose Contact is that list.
				if m, ok := got.(map[string]any); ok {
					got = m["Contact"]
				}
				list, ok := got.([]any)
				require.True(t, ok, "zeep result %v", got)
				var ids []any
				for _, c := range list {
					if c, ok := c.(map[string]any); ok {
						ids = append(ids, c["Id"])
					}
				}
				assert.Equal(t, []any{"zeep-" + b + "-1", "zeep-" + b + "-2"}, ids, "zeep over %s: %v", b, got)
			}
		},
	},
	{
		dir:      "05-readcontactlist",
		op:       "ReadContactList",
		bindings: []string{"soap11", "soap12", "get", "post"},
		check:    readContactList,
	},
	{
		// The compiler names one of the two missing methods (SaveContact is the other); check tests both.
		dir:      "06-contact-data",
		op:       "FindContacts",
		bindings: []string{"soap11", "soap12"},
		check:    contactData,
	},
	{
		dir:          "07-rename-field",
		base:         "06-contact-data",
		before:       beforeRename,
		check:        renameField,
		serveInCheck: true,
	},
	{
		dir:      "09-out-ref",
		op:       "SplitContactName",
		bindings: []string{"soap11", "soap12"},
		check:    outRef,
	},
	{
		dir:      "10-renamed-result",
		op:       "ReadContactEmail",
		bindings: []string{"soap11", "soap12", "get", "post"},
		check:    renamedResult,
	},
	{
		dir:      "12-one-way",
		op:       "TestUpdateContactLater",
		bindings: []string{"soap11", "soap12", "get", "post"},
		check:    oneWay,
	},
	{
		dir:      "15-polymorphic-contact",
		op:       "SavePolymorphicContact",
		bindings: []string{"soap11", "soap12"},
		check:    polymorphicContact,
	},
}

// readContactList is the 05-readcontactlist check: an array parameter (ids) on all four bindings and a
// dateTime parameter (asOf) on HTTP GET and POST, with the forms real clients send, and zeep over SOAP
// and its HTTP ports.
func readContactList(t *testing.T, s *scratch) {
	for _, id := range []string{"list-1", "list-2"} {
		s.call(t, "TestCreateContact", "soap11", "--id", id)
	}
	for _, b := range s.offered(t, "ReadContactList") {
		out := s.call(t, "ReadContactList", b, "--param", "ids=list-2", "--param", "ids=nobody", "--param", "ids=list-1",
			"--param", "asOf=2026-11-22T10:15:30.25+02:00")
		assert.Regexp(t, `(?s)<Id>list-2</Id>.*<Id>list-1</Id>`, out, "over %s: the contacts in the order asked", b)
		assert.Contains(t, out, "<Missing>\n      <string>nobody</string>\n    </Missing>", "over %s", b)
		assert.Contains(t, out, "<AsOf>2026-11-22T10:15:30.25+02:00</AsOf>", "over %s", b)
	}
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		// One value per item, names in any case; Python's str() of a datetime and .NET's invariant
		// form, as zeep and .NET's HTTP clients send them.
		for asOf, want := range map[string]string{
			"2026-11-22 10:15:30.250000+02:00": "2026-11-22T10:15:30.25+02:00",
			"11/22/2026 10:15:30":              "2026-11-22T10:15:30",
			"2026-11-22":                       "2026-11-22T00:00:00",
		} {
			status, body := s.http(t, method, "ReadContactList", url.Values{"ids": {"list-1", "nobody"}, "ASOF": {asOf}})
			require.Equal(t, http.StatusOK, status, body)
			assert.Contains(t, body, "<AsOf>"+want+"</AsOf>", "%s asOf=%s", method, asOf)
			assert.Contains(t, body, "<Contacts><Contact><Id>list-1</Id>", method)
			assert.Contains(t, body, "<Missing><string>nobody</string></Missing>", method)
		}
		// An absent array is an empty one; an absent dateTime, or a bad item, is the caller's error.
		status, body := s.http(t, method, "ReadContactList", url.Values{"asOf": {"2026-11-22T10:15:30Z"}})
		require.Equal(t, http.StatusOK, status, body)
		assert.Contains(t, body, "<AsOf>2026-11-22T10:15:30Z</AsOf><Contacts /><Missing /></ContactList>", method)
		status, body = s.http(t, method, "ReadContactList", url.Values{"ids": {"list-1"}})
		assert.Equal(t, http.StatusBadRequest, status, body)
		assert.Contains(t, body, "The parameter asOf is required.", method)
		status, body = s.http(t, method, "ReadContactList", url.Values{"ids": {"list-1", ""}, "asOf": {"2026-11-22"}})
		assert.Equal(t, http.StatusBadRequest, status, body)
		assert.Contains(t, body, "Item 2 of the parameter ids is not a valid id: The parameter id is required and must not be empty.", method)
	}
	asOf := map[string]any{"$datetime": "2026-11-22T10:15:30.250000+02:00"}
	for _, b := range s.offered(t, "ReadContactList") {
		// zeep takes an ArrayOfString parameter as {"string": [...]} over SOAP (the schema's shape)
		// and as a plain list over HTTP GET (the StringArray part's). Its HTTP POST binding cannot
		// send a list: it sends the text of the Python value, ['list-1'], which the service reads as
		// one id (docs/contract.md).
		var ids any = map[string]any{"string": []any{"list-1", "nobody"}}
		switch b {
		case "get":
			ids = []any{"list-1", "nobody"}
		case "post":
			ids = []any{"list-1"}
		}
		got := s.zeep(t, b, "ReadContactList", map[string]any{"ids": ids, "asOf": asOf})
		c, ok := got.(map[string]any)
		require.True(t, ok, "zeep result %v", got)
		assert.Equal(t, "2026-11-22T10:15:30.250000+02:00", c["AsOf"], "zeep over %s: the dateTime", b)
		if b == "post" {
			assert.Equal(t, map[string]any{"string": []any{"['list-1']"}}, c["Missing"], "zeep over post: %v", got)
			continue
		}
		contacts, _ := c["Contacts"].(map[string]any)
		list, _ := contacts["Contact"].([]any)
		require.Len(t, list, 1, "zeep over %s: %v", b, got)
		first, _ := list[0].(map[string]any)
		assert.Equal(t, "list-1", first["Id"], "zeep over %s", b)
		assert.Equal(t, map[string]any{"string": []any{"nobody"}}, c["Missing"], "zeep over %s", b)
	}
}

// TestContractEvolution applies every patch to a scratch copy of the module: the compiler must ask
// for exactly the service method (or nothing, for a field), and with it written the new operation or
// field must work over every binding that offers it and with a real client.
func TestContractEvolution(t *testing.T) {
	if testing.Short() {
		t.Skip("contract evolution builds the module four times; skipped with -short")
	}
	for _, tool := range []string{"go", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(t, tool+" is not installed")
		}
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	files := gitFiles(t, root)
	module := modulePath(t, root)
	haveZeep := exec.Command(python, "-c", "import zeep").Run() == nil
	goFlags := scratchGoFlags(t)
	warmBuildCache(t, root, files, goFlags)
	// The patches built on a base patch take about twice as long as the others: they start first, so
	// the longest patch is not the one left running alone at the end.
	ordered := slices.Clone(evolutions)
	slices.SortStableFunc(ordered, func(a, b evolution) int {
		return compareBool(a.base == "", b.base == "")
	})
	for _, ev := range ordered {
		t.Run(ev.dir, func(t *testing.T) {
			t.Parallel()
			patchSlots <- struct{}{}
			defer func() { <-patchSlots }()
			start, last := time.Now(), time.Now()
			lap := func(what string) {
				t.Logf("%s: %s", what, time.Since(last).Round(100*time.Millisecond))
				last = time.Now()
			}
			timeout := patchTimeout
			if ev.base != "" {
				timeout *= 2 // the base patch is built and run first
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			s := &scratch{ctx: ctx, dir: t.TempDir(), zeepOK: haveZeep, goFlags: goFlags}
			copyFiles(t, root, s.dir, files)
			lap("copy")
			patchDir := filepath.Join(root, "tools", "contractevo", "testdata", "patches", ev.dir)
			if ev.base != "" {
				baseDir := filepath.Join(root, "tools", "contractevo", "testdata", "patches", ev.base)
				s.run(t, "git", "apply", "-p1", filepath.Join(baseDir, "wsdl.patch"))
				s.run(t, "go", "generate", "./...")
				addServiceCode(t, s, baseDir)
				s.run(t, "go", "build", "-o", filepath.Join(s.dir, "bin")+string(filepath.Separator), "./cmd/contactsync")
				ev.before(t, s)
				lap("the base patch " + ev.base + " and its data")
			}

			s.run(t, "git", "apply", "-p1", filepath.Join(patchDir, "wsdl.patch"))
			s.run(t, "go", "generate", "./...")

			// The compiler is the to-do list: only the service's package fails, at the line that asserts
			// the service implements the generated interface, naming the method to write.
			out, err := s.output("go", "build", "./...")
			if ev.op == "" {
				require.NoError(t, err, "a new field needs no code to build:\n%s", out)
			} else {
				require.Error(t, err, "the build must ask for %sContext", ev.op)
				assert.Equal(t, []string{module + "/server/service"}, failedPackages(out), "packages that fail to build:\n%s", out)
				line := lineOf(t, filepath.Join(s.dir, "server", "service", "service.go"), "var _ gen.SyncServiceSoapServer = (*Service)(nil)")
				assert.Regexp(t, `(?m)^server/service/service\.go:`+fmt.Sprint(line)+`:\d+: .*\(missing method `+ev.op+`Context\)$`, out)
				assert.Len(t, regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: `).FindAllString(out, -1), 1, "one error, the missing method:\n%s", out)
			}

			// The service code: a method in a new file, or the lines of TestContact. go build does not compile
			// the packages that import a failed one, so the second half of "only the service's package" is
			// that, with nothing but this code added, the whole module builds.
			lap("generate and the first build")
			if ev.base == "" || hasServiceCode(t, patchDir) {
				addServiceCode(t, s, patchDir)
			}
			writeTableDumper(t, s)
			s.run(t, "go", "build", "-o", filepath.Join(s.dir, "bin")+string(filepath.Separator), "./cmd/contactsync", "./evodump")
			s.run(t, "go", "build", "./...")
			// go vet type-checks the tests too: no test double of the interface needs the method.
			s.run(t, "go", "vet", "./...")
			lap("the build with the service code")
			s.table = dumpTable(t, s)
			if ev.op != "" {
				require.Contains(t, s.table, ev.op, "the generated table lacks %s", ev.op)
				assert.Equal(t, ev.bindings, s.offered(t, ev.op), "bindings of %s", ev.op)
			}

			if !ev.serveInCheck {
				s.serve(t)
			}
			if ev.op != "" {
				// The help pages are driven by the table too: the new operation has its page.
				status, body := s.get(t, s.endpoint+"?op="+ev.op)
				assert.Equal(t, http.StatusOK, status, body)
				assert.Contains(t, body, ev.op)
			}
			ev.check(t, s)
			lap("serve and calls")
			t.Logf("%s: %s in all", ev.dir, time.Since(start).Round(time.Second))
		})
	}
}

// missing fails the test in CI (CI=true), where every tool must be installed, and skips it elsewhere.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: the contract-evolution test must run)", why)
	}
	t.Skipf("%s; skipping (in CI this fails)", why)
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// scratchGoFlags is GOFLAGS for the go commands run in scratch copies: the caller's (its environment,
// else its go env file), and -trimpath. Without -trimpath, the build cache keys every package of the
// module by its directory, so each scratch copy (a new temporary directory) compiled and vetted the
// whole module afresh; with it, a package is keyed by its import path and content, so the copies
// share every package a patch leaves alone, with each other, with the warm-up build and with the
// previous run. The paths in the binaries' stack traces are then module paths, which nothing here
// reads; the compiler's error positions (which the test matches) are unchanged.
func scratchGoFlags(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOFLAGS").Output()
	require.NoError(t, err, "go env GOFLAGS")
	return strings.TrimSpace(strings.TrimSpace(string(out)) + " -trimpath")
}

// warmBuildCache builds and vets an unpatched scratch copy once, before the patches start, so the
// packages no patch changes are compiled once (and are found in the build cache by every patch)
// instead of by the first patches at the same time; go generate builds the generator, which the
// build cache keeps too. On a warm cache (a second run) this takes a few seconds.
func warmBuildCache(t *testing.T, root string, files []string, goFlags string) {
	t.Helper()
	start := time.Now()
	// On a fresh machine this compiles and vets the whole module (tests included), several times a
	// patch's work: it is bounded by go test's -timeout only.
	s := &scratch{ctx: context.Background(), dir: t.TempDir(), goFlags: goFlags}
	copyFiles(t, root, s.dir, files)
	s.run(t, "go", "generate", "./...")
	s.run(t, "go", "build", "./...")
	s.run(t, "go", "vet", "./...")
	t.Logf("warm-up build of the unpatched module: %s", time.Since(start).Round(100*time.Millisecond))
}

// scratch is one patched copy of the module and, once started, its server.
type scratch struct {
	ctx       context.Context
	dir       string
	goFlags   string // GOFLAGS of its go commands (scratchGoFlags)
	zeepOK    bool
	table     map[string][]string // operation -> bindings, from the generated table
	endpoint  string
	namespace string
	stop      func() // stops the server started by serve; nil when none runs
}

// env is the environment of the commands run in the scratch copy: the caller's, so the Go build and
// module caches are shared (with GOFLAGS' -trimpath, the module's own packages too: scratchGoFlags),
// less the service's own settings (CONTACTSYNC_*, which would change e.g. the namespace under the
// test), and git looks for no repository above the copy.
func (s *scratch) env() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "CONTACTSYNC_") || strings.HasPrefix(kv, "GOFLAGS=")
	})
	return append(env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(s.dir), "GOWORK=off", "GOFLAGS="+s.goFlags)
}

func (s *scratch) command(name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(s.ctx, name, args...)
	cmd.Dir = s.dir
	cmd.Env = s.env()
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

func (s *scratch) output(name string, args ...string) (string, error) {
	out, err := s.command(name, args...).CombinedOutput()
	return string(out), err
}

func (s *scratch) run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := s.output(name, args...)
	require.NoError(t, err, "%s %s:\n%s", name, strings.Join(args, " "), out)
	return out
}

// offered returns the bindings of the WSDL the generated table offers op on (the JSON endpoint,
// which is not in the WSDL, is called with callJSON).
func (s *scratch) offered(t *testing.T, op string) []string {
	t.Helper()
	b, ok := s.table[op]
	require.True(t, ok, "the generated table has no operation %s", op)
	b = slices.DeleteFunc(slices.Clone(b), func(b string) bool { return b == "json" })
	require.NotEmpty(t, b, "%s is offered on no binding of the WSDL", op)
	return b
}

// callJSON calls op over the JSON endpoint with `contactsync call --binding json` and returns the
// result, the "d" member of the answer.
func (s *scratch) callJSON(t *testing.T, op string, args ...string) any {
	t.Helper()
	require.Contains(t, s.table[op], "json", "the generated table offers %s on the JSON endpoint", op)
	out := s.call(t, op, "json", args...)
	var v struct{ D any }
	require.NoError(t, json.Unmarshal([]byte(out), &v), "call printed %s", out)
	return v.D
}

// call runs `contactsync call op --binding b args...` against the scratch server and returns what it
// prints: the response element as XML.
func (s *scratch) call(t *testing.T, op, binding string, args ...string) string {
	t.Helper()
	argv := append([]string{"call", op, "--binding", binding, "--url", s.endpoint}, args...)
	out, err := s.command(filepath.Join(s.dir, "bin", "contactsync"), argv...).CombinedOutput()
	require.NoError(t, err, "contactsync %s:\n%s", strings.Join(argv, " "), out)
	return string(out)
}

// callFault runs `contactsync call` expecting it to fail, and returns what it prints.
func (s *scratch) callFault(t *testing.T, op, binding string, args ...string) string {
	t.Helper()
	argv := append([]string{"call", op, "--binding", binding, "--url", s.endpoint}, args...)
	out, err := s.command(filepath.Join(s.dir, "bin", "contactsync"), argv...).CombinedOutput()
	require.Error(t, err, "contactsync %s should fail:\n%s", strings.Join(argv, " "), out)
	return string(out)
}

// get fetches u and returns the status and body.
func (s *scratch) get(t *testing.T, u string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(s.ctx, http.MethodGet, u, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(data)
}

// http sends op's parameters over the HTTP GET or POST binding by hand and returns the status and body.
func (s *scratch) http(t *testing.T, method, op string, params url.Values) (int, string) {
	t.Helper()
	u := s.endpoint + "/" + op
	var body io.Reader
	if method == http.MethodGet {
		u += "?" + params.Encode()
	} else {
		body = strings.NewReader(params.Encode())
	}
	req, err := http.NewRequestWithContext(s.ctx, method, u, body)
	require.NoError(t, err)
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(data)
}

// zeep has zeep import the served ?WSDL and call op on the binding's port; it returns the result as
// zeep serializes it, decoded from JSON.
func (s *scratch) zeep(t *testing.T, binding, op string, args map[string]any) any {
	t.Helper()
	if !s.zeepOK {
		missing(t, "python3-zeep is not installed for "+python)
	}
	if _, err := os.Stat(soapEncodingSchema); err != nil {
		missing(t, "python3-xmlschema is not installed: zeep_call.py serves its soap-encoding.xsd to zeep")
	}
	js, err := json.Marshal(args)
	require.NoError(t, err)
	script, err := filepath.Abs("zeep_call.py")
	require.NoError(t, err)
	cmd := s.command(python, script, s.endpoint+"?WSDL", binding, op, string(js))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "zeep %s %s:\n%s", binding, op, stderr.String())
	var v any
	require.NoError(t, json.Unmarshal(out, &v), "zeep printed %s", out)
	return v
}

// serve starts the scratch binary on a port the kernel picks, with a fresh SQLite store, and stops it
// when the test ends.
func (s *scratch) serve(t *testing.T) {
	t.Helper()
	srv := s.serveWith(t, filepath.Join(s.dir, "bin", "contactsync"), "sqlite:"+filepath.Join(s.dir, "evo.db"))
	s.endpoint, s.stop = srv.endpoint, srv.stop
	// The served contract's namespace comes from the default base URL.
	s.namespace = "http://localhost:8080/contactsync/v1/"
}

// server is a running scratch binary.
type server struct {
	endpoint string
	// log returns what it has written to its standard error so far.
	log func() string
	// stop stops it (SIGTERM, then a kill after 10 s) and waits; it may be called more than once.
	stop func()
}

// serveWith starts the binary bin on a port the kernel picks, serving store, and stops it when the
// test ends.
func (s *scratch) serveWith(t *testing.T, bin, store string) *server {
	t.Helper()
	// Every protocol, the JSON endpoint included (it is off by default, as in ASMX).
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0",
		"--protocols", "soap11,soap12,get,post,json,docs", "--store", store)
	cmd.Dir = s.dir
	cmd.Env = s.env()
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	cmd.Stdout = io.Discard
	require.NoError(t, cmd.Start())
	var (
		mu   sync.Mutex
		log  bytes.Buffer
		once sync.Once
	)
	addr := make(chan string, 1)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		listening := regexp.MustCompile(`listening.* addr=(127\.0\.0\.1:\d+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
	}()
	srv := &server{log: func() string {
		mu.Lock()
		defer mu.Unlock()
		return log.String()
	}}
	srv.stop = func() {
		once.Do(func() {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
			<-drained
			if t.Failed() {
				t.Logf("server log (%s):\n%s", filepath.Base(filepath.Dir(bin)), srv.log())
			}
		})
	}
	t.Cleanup(srv.stop)
	select {
	case a := <-addr:
		srv.endpoint = "http://" + a + "/contactsync/v1/sync.asmx"
	case <-time.After(30 * time.Second):
		t.Fatalf("the server did not report listening within 30 s:\n%s", srv.log())
	}
	return srv
}

// restart stops the server and starts it again on the same store (on another port).
func (s *scratch) restart(t *testing.T) {
	t.Helper()
	s.stop()
	s.serve(t)
}

// gitFiles lists the module's tracked files, as the scratch copy holds them.
func gitFiles(t *testing.T, root string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		missing(t, fmt.Sprintf("git ls-files: %v (not a git checkout?)", err))
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	require.Contains(t, files, "wsdl/contactsync.wsdl")
	return files
}

// copyFiles copies the tracked files from root to dir (patching.CopyFiles): a tracked file deleted
// from the work tree is left out, as it would be from a commit of the work tree.
func copyFiles(t *testing.T, root, dir string, files []string) {
	t.Helper()
	require.NoError(t, patching.CopyFiles(root, dir, files))
}

func modulePath(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(data)
	require.NotNil(t, m, "go.mod has no module line")
	return string(m[1])
}

// failedPackages lists the packages `go build` reports errors for (its "# package" headers).
func failedPackages(out string) []string {
	var pkgs []string
	for _, line := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(line, "# "); ok && !slices.Contains(pkgs, p) {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

// lineOf returns the 1-based number of the line of file holding text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, text) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line %q", file, text)
	return 0
}

// hasServiceCode reports whether a patch directory holds service code (service.patch or .go files).
func hasServiceCode(t *testing.T, patchDir string) bool {
	t.Helper()
	has, err := patching.HasServiceCode(patchDir)
	require.NoError(t, err)
	return has
}

// addServiceCode writes the patch's service code into the scratch copy (patching.AddServiceCode):
// service.patch is applied; every .go file is copied into server/service/.
func addServiceCode(t *testing.T, s *scratch, patchDir string) {
	t.Helper()
	require.NoError(t, patching.AddServiceCode(s.dir, patchDir, func(patchFile string) error {
		if out, err := s.output("git", "apply", "-p1", patchFile); err != nil {
			return fmt.Errorf("git apply %s: %w\n%s", patchFile, err, out)
		}
		return nil
	}))
}

// writeTableDumper adds to the scratch copy a program that prints the generated operation table's
// bindings, so the test asks the table (not the WSDL or a list of its own) which bindings to call.
func writeTableDumper(t *testing.T, s *scratch) {
	t.Helper()
	src := `package main

import (
	"fmt"
	"strings"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/client"
)

func main() {
	for _, op := range gen.Operations {
		var bs []string
		for _, b := range append(client.Bindings, client.JSON) {
			if client.Offers(op, b) {
				bs = append(bs, string(b))
			}
		}
		fmt.Println(op.Name, strings.Join(bs, ","))
	}
}
`
	dir := filepath.Join(s.dir, "evodump")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644))
}

func dumpTable(t *testing.T, s *scratch) map[string][]string {
	t.Helper()
	out := s.run(t, filepath.Join(s.dir, "bin", "evodump"))
	table := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		name, bindings, _ := strings.Cut(line, " ")
		table[name] = strings.Split(bindings, ",")
	}
	return table
}
