package sqlite

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The role ids are stored as a JSON array of strings. encoding/json works by reflection and was a
// visible share of a ReadContact's allocations in the profile (BENCHMARKS.md), yet nearly every role
// id is plain ASCII that JSON writes verbatim between quotes. So both directions handle that case by
// hand and leave everything else (escapes, non-ASCII, the characters encoding/json escapes for HTML
// safety) to encoding/json, which keeps the stored form byte-for-byte what json.Marshal writes.

// plainJSONString reports whether json.Marshal writes s as '"' + s + '"': printable ASCII other than
// the quote, the backslash and the HTML-sensitive <, > and &, which encoding/json escapes.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// encodeRoles renders role ids as the JSON array stored in role_ids; nil and empty both become [].
// encoding/json escapes <, > and & as \u003c etc.; decoding restores them, so every valid UTF-8 string
// round-trips exactly. (Invalid UTF-8 would be replaced by U+FFFD, but the SOAP/XML layer cannot carry
// it in the first place.)
func encodeRoles(ids []string) (string, error) {
	if len(ids) == 0 {
		return "[]", nil
	}
	n := 2
	for _, id := range ids {
		if !plainJSONString(id) {
			b, err := json.Marshal(ids)
			if err != nil {
				return "", fmt.Errorf("encode role ids: %w", err)
			}
			return string(b), nil
		}
		n += len(id) + 3
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		b.WriteString(id)
		b.WriteByte('"')
	}
	b.WriteByte(']')
	return b.String(), nil
}

// decodeRoles parses role_ids. An empty array yields nil, the package's documented form for "no roles".
func decodeRoles(s string) ([]string, error) {
	if ids, ok := decodePlainRoles(s); ok {
		return ids, nil
	}
	var ids []string
	if err := json.Unmarshal([]byte(s), &ids); err != nil {
		return nil, fmt.Errorf("decode role ids %q: %w", s, err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	return ids, nil
}

// decodePlainRoles parses exactly the form encodeRoles writes for plain ids, ["a","b"] without white
// space or escapes; ok is false for anything else, which decodeRoles then hands to encoding/json.
func decodePlainRoles(s string) (ids []string, ok bool) {
	if s == "[]" {
		return nil, true
	}
	if len(s) < 4 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, false
	}
	body := s[1 : len(s)-1]
	ids = make([]string, 0, strings.Count(body, `","`)+1)
	for {
		if len(body) < 2 || body[0] != '"' {
			return nil, false
		}
		end := strings.IndexByte(body[1:], '"') + 1
		if end == 0 {
			return nil, false
		}
		id := body[1:end]
		if !plainJSONString(id) {
			return nil, false
		}
		ids = append(ids, id)
		body = body[end+1:]
		if body == "" {
			return ids, true
		}
		if body[0] != ',' {
			return nil, false
		}
		body = body[1:]
	}
}
