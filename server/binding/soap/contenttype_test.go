package soap

import (
	"mime"
	"testing"
)

// parsedSOAPType is what mime.ParseMediaType makes of a content type, as MediaType and actionParam
// use it.
func parsedSOAPType(contentType string) (mediaType, action string, err error) {
	mediaType, params, err := mime.ParseMediaType(contentType)
	return mediaType, params["action"], err
}

// checkReadSOAPType fails t when readSOAPType accepts contentType and mime.ParseMediaType does not, or
// reads it otherwise.
func checkReadSOAPType(t *testing.T, contentType string) (accepted bool) {
	t.Helper()
	mediaType, action, ok := readSOAPType(contentType)
	if !ok {
		return false
	}
	wantType, wantAction, err := parsedSOAPType(contentType)
	if err != nil || mediaType != wantType || action != wantAction {
		t.Fatalf("readSOAPType(%q) = %q, %q; mime.ParseMediaType gives %q, action %q, error %v",
			contentType, mediaType, action, wantType, wantAction, err)
	}
	return true
}

func TestReadSOAPType(t *testing.T) {
	const action = `"http://localhost:8080/contactsync/v1/ReadContact"`
	for _, tc := range []struct {
		contentType string
		fast        bool // read without mime: the shapes clients send must be
	}{
		{"text/xml; charset=utf-8", true},
		{"text/xml; charset=UTF-8", true},
		{"text/xml;charset=utf-8", true},
		{"text/xml", true},
		{"Text/XML; Charset=utf-8", true},
		{"application/soap+xml; charset=utf-8; action=" + action, true},
		{"application/soap+xml;charset=utf-8;action=" + action, true},
		{"application/soap+xml; action=" + action + "; charset=utf-8", true},
		{"application/soap+xml; charset=utf-8", true},
		{"application/soap+xml; action=\"\"", true},
		{"application/soap+xml; action=ReadContact", true},
		{"application/soap+xml ; action = " + action + " ;", true},
		{"application/soap+xml; charset=utf-8; action=" + action + "; action=x", false},
		{"application/soap+xml; ACTION=a; action=b", false},
		{`application/soap+xml; action="a\"b"`, false},
		{`application/soap+xml; action="unterminated`, false},
		{"application/soap+xml; action*=utf-8''a", false},
		{"application/soap+xml; action=a:b", false},
		{"application/soap+xml; ;", false},
		{"application/soap+xmlx; action=a", false},
		{" text/xml", false},
		{"text/html; charset=utf-8", false},
		{"", false},
	} {
		t.Run(tc.contentType, func(t *testing.T) {
			if got := checkReadSOAPType(t, tc.contentType); got != tc.fast {
				t.Errorf("readSOAPType accepted %q: %v, want %v", tc.contentType, got, tc.fast)
			}
			wantType, wantAction, err := parsedSOAPType(tc.contentType)
			if err != nil {
				wantAction = ""
			}
			if got := MediaType(tc.contentType); got != wantType {
				t.Errorf("MediaType(%q) = %q, want %q", tc.contentType, got, wantType)
			}
			if got := actionParam(tc.contentType); got != wantAction {
				t.Errorf("actionParam(%q) = %q, want %q", tc.contentType, got, wantAction)
			}
		})
	}
}

// FuzzReadSOAPType holds readSOAPType to mime.ParseMediaType for any content type it accepts.
func FuzzReadSOAPType(f *testing.F) {
	f.Add("application/soap+xml; charset=utf-8; action=\"http://localhost:8080/contactsync/v1/ReadContact\"")
	f.Add("text/xml; charset=utf-8")
	f.Add("application/soap+xml; action=a; ACTION=b")
	f.Fuzz(func(t *testing.T, contentType string) {
		checkReadSOAPType(t, contentType)
	})
}
