package oauthsasl

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// maxChallenge caps what ParseChallenge reads: the error object of either
// mechanism is a few hundred bytes.
const maxChallenge = 4 << 10

// ServerError is a server's error challenge (RFC 7628 section 3.2.2; the
// same object in XOAUTH2): an HTTP-like status ("401", "invalid_token")
// and what it would take.
type ServerError struct {
	Status  string `json:"status"`
	Schemes string `json:"schemes"`
	Scope   string `json:"scope"`
}

func (e *ServerError) Error() string {
	s := "the server refused the token (status " + e.Status
	if e.Scope != "" {
		s += ", scope " + e.Scope
	}
	return s + ")"
}

// ParseChallenge reads an error challenge. The challenge comes from the
// server (untrusted): anything not a JSON object, or too large, gives a
// ServerError whose Status says so; every field is cut to printable text
// of bounded length, since it may end up in a message to the person.
func ParseChallenge(b []byte) *ServerError {
	if len(b) > maxChallenge {
		return &ServerError{Status: fmt.Sprintf("unreadable (%d bytes)", len(b))}
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return &ServerError{Status: "unreadable"}
	}
	str := func(k string) string {
		switch v := raw[k].(type) {
		case string:
			return clean(v)
		case float64:
			return clean(fmt.Sprint(v))
		}
		return ""
	}
	e := &ServerError{Status: str("status"), Schemes: str("schemes"), Scope: str("scope")}
	if e.Status == "" {
		e.Status = "none given"
	}
	return e
}

// clean keeps printable characters and at most 200 of them.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, s)
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200])
	}
	return s
}
