package server

import (
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"github.com/contactsync/contactsync/gen"
	"github.com/contactsync/contactsync/server/auth"
	"github.com/contactsync/contactsync/server/binding/soap"
	"github.com/contactsync/contactsync/server/service"
	"github.com/contactsync/contactsync/wsdl"
)

// FuzzAuthCredentials feeds arbitrary Authorization headers and arbitrary WS-Security header content
// (untrusted input) through the handler with authentication on. It must never panic, answer only 200,
// 401 or a fault, and answer 200 only when the credentials really are alice's.
func FuzzAuthCredentials(f *testing.F) {
	hash, err := bcrypt.GenerateFromPassword([]byte("alice-pw"), bcrypt.MinCost)
	if err != nil {
		f.Fatal(err)
	}
	users, err := auth.ParseUsers(strings.NewReader("alice:" + string(hash) + ":digest=" + base64.StdEncoding.EncodeToString([]byte("alice-pw")) + "\n"))
	if err != nil {
		f.Fatal(err)
	}
	a, err := auth.New(users, auth.Options{})
	if err != nil {
		f.Fatal(err)
	}
	h, err := NewHandler(gen.Bind(service.New(nil)), Config{BaseURL: "http://localhost:8080", Auth: a})
	if err != nil {
		f.Fatal(err)
	}
	good := "Basic " + base64.StdEncoding.EncodeToString([]byte("alice:alice-pw"))
	token := `<wsse:UsernameToken><wsse:Username>alice</wsse:Username><wsse:Password Type="` + auth.PasswordText + `">alice-pw</wsse:Password></wsse:UsernameToken>`
	for _, seed := range [][2]string{
		{good, ""},
		{"", token},
		{"Basic " + base64.StdEncoding.EncodeToString([]byte("alice:nope")), ""},
		{"Basic ", ""},
		{"basic YWxpY2U6YWxpY2UtcHc=", ""},
		{"Negotiate abc", ""},
		{"", `<wsse:UsernameToken><wsse:Username>alice</wsse:Username><wsse:Password Type="` + auth.PasswordDigest + `">AAAA</wsse:Password><wsse:Nonce>***</wsse:Nonce><wsu:Created>2026-13-45T99:00:00Z</wsu:Created></wsse:UsernameToken>`},
		{"", `<wsse:UsernameToken><wsse:Username><x/>alice</wsse:Username></wsse:UsernameToken>` + token},
		{"", `<wsse:UsernameToken><wsse:Password>alice-pw`},
	} {
		f.Add(seed[0], seed[1], false)
		f.Add(seed[0], seed[1], true)
	}
	f.Fuzz(func(t *testing.T, authorization, security string, version12 bool) {
		envNS, ct := soap.EnvelopeNS11, "text/xml; charset=utf-8"
		if version12 {
			envNS, ct = soap.EnvelopeNS12, "application/soap+xml; charset=utf-8"
		}
		body := `<s:Envelope xmlns:s="` + envNS + `"><s:Header><wsse:Security xmlns:wsse="` + auth.NSSecurityExt + `" xmlns:wsu="` + auth.NSSecurityUtil + `">` +
			security + `</wsse:Security></s:Header><s:Body><VersionMajor xmlns="` + wsdl.DefaultNamespace + `"/></s:Body></s:Envelope>`
		r := httptest.NewRequest(http.MethodPost, gen.Contract.Path, strings.NewReader(body))
		r.Header.Set("Content-Type", ct)
		if authorization != "" {
			r.Header.Set("Authorization", authorization)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		switch w.Code {
		case http.StatusOK:
			user, pw, ok := r.BasicAuth()
			basicGood := ok && user == "alice" && pw == "alice-pw"
			if !basicGood && !strings.Contains(security, "alice-pw") && !strings.Contains(security, "PasswordDigest") {
				t.Fatalf("accepted without alice's credentials: Authorization %q, Security %q", authorization, security)
			}
		case http.StatusUnauthorized:
			if w.Header().Get("WWW-Authenticate") != auth.BasicChallenge {
				t.Fatalf("401 without the challenge")
			}
		case http.StatusInternalServerError, http.StatusServiceUnavailable:
			if !strings.Contains(w.Body.String(), "Fault") {
				t.Fatalf("status %d without a fault: %s", w.Code, w.Body)
			}
		default:
			t.Fatalf("unexpected status %d: %s", w.Code, w.Body)
		}
		if strings.Contains(w.Body.String(), "alice-pw") {
			t.Fatalf("the answer echoes the password: %s", w.Body)
		}
	})
}
