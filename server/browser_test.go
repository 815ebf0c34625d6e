package server_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chromiumPath finds a Chromium (or Chrome) binary: $CONTACTSYNC_CHROMIUM, else the usual names on PATH.
func chromiumPath() string {
	if p := os.Getenv("CONTACTSYNC_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// artifactsDir is where the browser test saves its screenshots: $CONTACTSYNC_ARTIFACTS, or a
// temporary directory of the test.
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CONTACTSYNC_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// newBrowser starts headless Chromium with a fresh profile and nothing that reaches beyond loopback.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := chromiumPath()
	if exe == "" {
		const msg = "Chromium is not installed; the browser test needs it (Debian: apt-get install chromium, or set CONTACTSYNC_CHROMIUM)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1000, 760),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	t.Cleanup(cancelBrowser)
	require.NoError(t, chromedp.Do(browserCtx), "starting %s", exe)
	return browserCtx
}

// screenshot saves the viewport as a PNG artifact and logs its path.
func screenshot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// TestBrowserHelpPage drives the help pages in headless Chromium: from the service page to ReadContact,
// invoke it for a stored contact and for an unknown id, and check what the page shows; then the same
// form with JavaScript disabled, where the browser shows the raw response.
func TestBrowserHelpPage(t *testing.T) {
	ctx := newBrowser(t)
	ts := newTestServer(t, wsdl.DefaultBaseURL)
	dir := artifactsDir(t)

	const id = "browser-42"
	want := service.TestContact(id)
	require.NoError(t, ts.store.Put(context.Background(), service.ToRecord(want)))
	const markupID = `<b id="injected">bold</b>&amp;`
	require.NoError(t, ts.store.Put(context.Background(), service.TestRecord(markupID)))

	// The service page lists every operation with its description and links to the contract.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1000, 820),
		chromedp.Navigate(ts.endpoint),
		chromedp.WaitVisible(chromedp.CSS(`a[href="sync.asmx?op=ReadContact"]`)),
	))
	assert.Equal(t, "SyncService", text(t, ctx, `h1`))
	list := text(t, ctx, `ul.operations`)
	assert.Contains(t, list, "ReadContact\nRead a contact from the system")
	assert.Contains(t, list, "VersionMinor\nMinor version number of the web service")
	screenshot(t, ctx, dir, "help-page.png")

	// Follow the link to ReadContact and invoke it for the stored contact.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`a[href="sync.asmx?op=ReadContact"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#param-id`)),
	))
	location, err := chromedp.Run(ctx, chromedp.Location())
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(location, wsdl.Path+"?op=ReadContact"), location)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#param-id`), id),
		chromedp.Click(chromedp.CSS(`#tryit button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#tryit-result table.fields`)),
	))
	result := text(t, ctx, `#tryit-result`)
	assert.Contains(t, result, "HTTP 200")
	// Every field of the contract's Contact has its row: a text field with its value, an array of
	// texts with its items (other values in the form the page gives them: their name at least).
	for _, f := range contactFields(t, want) {
		switch v := f.value.(type) {
		case string:
			assert.Contains(t, result, f.name+"\t"+v, "the result table shows %s", f.name)
		case []any:
			var items []string
			for _, item := range v {
				items = append(items, fmt.Sprint(item))
			}
			assert.Contains(t, result, f.name+"\t"+strings.Join(items, ", "), "the result table shows %s", f.name)
		default:
			assert.Contains(t, result, f.name+"\t", "the result table shows %s", f.name)
		}
	}
	assert.Contains(t, result, "<FirstName>Test</FirstName>", "the raw XML is shown as text")
	screenshot(t, ctx, dir, "help-readcontact.png")

	// An unknown id: the 404's message is shown as an error.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#param-id`), "no-such-contact"),
		chromedp.Click(chromedp.CSS(`#tryit button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#tryit-result.error`)),
	))
	result = text(t, ctx, `#tryit-result`)
	assert.Contains(t, result, "HTTP 404")
	assert.Contains(t, result, `Contact "no-such-contact" does not exist.`)
	screenshot(t, ctx, dir, "help-readcontact-error.png")

	// An id holding markup round-trips and is shown as text, never as elements.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#param-id`), markupID),
		chromedp.Click(chromedp.CSS(`#tryit button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#tryit-result:not(.error) table.fields`)),
	))
	result = text(t, ctx, `#tryit-result`)
	assert.Contains(t, result, "Id\t"+markupID)
	injected, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById("injected") !== null`))
	require.NoError(t, err)
	assert.False(t, injected, "markup in a result must not become an element")

	// Without JavaScript the plain form posts to the HTTP POST binding and the browser shows the XML,
	// or the error text.
	noJS, cancel := chromedp.NewContext(ctx)
	defer cancel()
	require.NoError(t, chromedp.Do(noJS))
	_, err = chromedp.Call(noJS, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
	require.NoError(t, err)
	for _, tc := range []struct{ id, want string }{
		{id, want.EmailAddress},
		{"no-such-contact", `Contact "no-such-contact" does not exist.`},
	} {
		require.NoError(t, chromedp.Do(noJS,
			chromedp.Navigate(ts.endpoint+"?op=ReadContact"),
			chromedp.WaitVisible(chromedp.CSS(`#param-id`)),
			chromedp.SendKeys(chromedp.CSS(`#param-id`), tc.id),
			chromedp.Click(chromedp.CSS(`#tryit button[type=submit]`)),
			chromedp.WaitNotPresent(chromedp.CSS(`#tryit`)),
		))
		location, err := chromedp.Run(noJS, chromedp.Location())
		require.NoError(t, err)
		assert.True(t, strings.HasSuffix(location, wsdl.Path+"/ReadContact"), location)
		page, err := chromedp.Run(noJS, chromedp.Evaluate[string](`document.documentElement.textContent`))
		require.NoError(t, err)
		assert.Contains(t, page, tc.want)
	}
}

// text returns the rendered text of the first element matching sel.
func text(t *testing.T, ctx context.Context, sel chromedp.CSS) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Text(sel))
	require.NoError(t, err)
	return v
}

// TestBrowserJSONForm: with HTTP GET and POST off and the JSON endpoint on, the help page's test form
// calls the JSON endpoint with the page's own script (fetch), and shows the {"d": …} result as fields,
// and a failure's Message.
func TestBrowserJSONForm(t *testing.T) {
	ctx := newBrowser(t)
	ts := newTestServerWith(t, "soap11", "soap12", "json", "docs")
	dir := artifactsDir(t)
	const id = "browser-json-1"
	want := service.TestContact(id)
	require.NoError(t, ts.store.Put(context.Background(), service.ToRecord(want)))

	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1000, 820),
		chromedp.Navigate(ts.endpoint+"?op=ReadContact"),
		chromedp.WaitVisible(chromedp.CSS(`#tryit[data-binding="json"] #param-id`)),
		chromedp.SendKeys(chromedp.CSS(`#param-id`), id),
		chromedp.Click(chromedp.CSS(`#tryit button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#tryit-result table.fields`)),
	))
	result := text(t, ctx, `#tryit-result`)
	assert.Contains(t, result, "HTTP 200")
	assert.Contains(t, result, "Response JSON")
	assert.Contains(t, result, "EmailAddress\t"+want.EmailAddress)
	assert.Contains(t, result, "RoleIds\t"+strings.Join(roleList(want), ", "))
	assert.Contains(t, result, `{"d":{"Id":"`+id+`"`, "the raw JSON is shown as text")
	screenshot(t, ctx, dir, "help-readcontact-json.png")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#param-id`), "no-such-contact"),
		chromedp.Click(chromedp.CSS(`#tryit button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#tryit-result.error`)),
	))
	result = text(t, ctx, `#tryit-result`)
	assert.Contains(t, result, "HTTP 500")
	assert.Contains(t, result, `Contact "no-such-contact" does not exist.`)
	assert.NotContains(t, result, "StackTrace", "the error's Message is shown, not the raw object")
}

// roleList returns the role ids of c.
func roleList(c *gen.Contact) []string {
	var out []string
	if c.RoleIds != nil {
		for _, r := range c.RoleIds.Astring {
			out = append(out, *r)
		}
	}
	return out
}
