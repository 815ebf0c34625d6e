package zoo_test

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// capture is one exchange of testdata/captures: "### CASE: …", "### REQUEST" (the request as curl
// sent it), "### RESPONSE" (curl -i output).
type capture struct {
	name, title string
	request     *http.Request
	reqBody     []byte
	response    *http.Response
	respBody    []byte
}

// readCaptures reads the first type zoo's exchanges.
func readCaptures(t *testing.T) []*capture {
	t.Helper()
	return readCapturesIn(t, "testdata/captures", 91)
}

// readCapturesIn reads the n exchanges captured in dir.
func readCapturesIn(t *testing.T, dir string, n int) []*capture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	require.NoError(t, err)
	require.Len(t, files, n, "%s holds %d exchanges", dir, n)
	var out []*capture
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		c, err := parseCapture(strings.TrimSuffix(filepath.Base(f), ".txt"), data)
		require.NoError(t, err, f)
		out = append(out, c)
	}
	return out
}

func parseCapture(name string, data []byte) (*capture, error) {
	head, rest, ok := bytes.Cut(data, []byte("\n### REQUEST\n"))
	if !ok || !bytes.HasPrefix(head, []byte("### CASE: ")) {
		return nil, errors.New("no ### CASE / ### REQUEST")
	}
	c := &capture{name: name, title: string(bytes.TrimPrefix(head, []byte("### CASE: ")))}
	i := bytes.LastIndex(rest, []byte("\n### RESPONSE\n"))
	if i < 0 {
		return nil, errors.New("no ### RESPONSE")
	}
	reqText, respText := rest[:i+1], rest[i+len("\n### RESPONSE\n"):]
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(reqText)))
	if err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	if c.reqBody, err = io.ReadAll(req.Body); err != nil {
		return nil, fmt.Errorf("request body: %w", err)
	}
	c.request = req
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(respText)), req)
	if err != nil {
		return nil, fmt.Errorf("response: %w", err)
	}
	if c.respBody, err = io.ReadAll(resp.Body); err != nil {
		return nil, fmt.Errorf("response body: %w", err)
	}
	c.response = resp
	return c, nil
}

// infoset renders an XML document as what the comparison holds to: one line per element with its
// expanded name, its attributes other than namespace declarations (sorted, by expanded name), and its
// text exactly; white space between child elements is dropped. Namespace declaration placement,
// prefixes, attribute order, escaping choices (" or &quot;) and indentation therefore do not count.
// Elements whose expanded local name is in drop and that are empty (no attribute, child or text) are
// left out.
func infoset(doc []byte, drop map[string]bool) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	type elem struct {
		line     string
		text     strings.Builder
		children []string
		hasChild bool
		attrs    int
	}
	var stack []*elem
	var out []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			var attrs []string
			for _, a := range tok.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					continue
				}
				attrs = append(attrs, fmt.Sprintf("{%s}%s=%q", a.Name.Space, a.Name.Local, a.Value))
			}
			slices.Sort(attrs)
			e := &elem{line: fmt.Sprintf("{%s}%s", tok.Name.Space, tok.Name.Local), attrs: len(attrs)}
			if len(attrs) > 0 {
				e.line += " " + strings.Join(attrs, " ")
			}
			if drop[tok.Name.Local] {
				e.line = "?" + e.line // decided at the end tag
			}
			if len(stack) > 0 {
				stack[len(stack)-1].hasChild = true
			}
			stack = append(stack, e)
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(tok)
			}
		case xml.EndElement:
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			text := e.text.String()
			if e.hasChild && strings.TrimSpace(text) == "" {
				text = ""
			}
			var lines []string
			line := strings.TrimPrefix(e.line, "?")
			if strings.HasPrefix(e.line, "?") && !e.hasChild && text == "" && e.attrs == 0 {
				continue
			}
			lines = append(lines, fmt.Sprintf("%s %q", line, text))
			for _, c := range e.children {
				lines = append(lines, "  "+c)
			}
			if len(stack) == 0 {
				out = append(out, lines...)
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, lines...)
			}
		}
	}
	return strings.Join(out, "\n"), nil
}
