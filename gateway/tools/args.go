package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode"
)

// CheckArguments refuses arguments that two JSON readers could read
// differently, before the call is authorised: Go's encoding/json matches
// object keys case-insensitively and keeps the last of duplicates, while
// a person (or another parser) reads the first, so {"query":"A","Query":"B"}
// would be shown as one request and run as another. Arguments are one
// JSON object (or nothing), its keys lower-case ASCII names, and no object
// anywhere in it has two keys that are equal or differ only in case.
func CheckArguments(args json.RawMessage) error {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil
	}
	if trimmed[0] != '{' {
		return &Error{Code: "invalid_arguments", Message: "arguments must be a JSON object"}
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := checkValue(dec, 0); err != nil {
		var te *Error
		if errors.As(err, &te) {
			return te
		}
		return &Error{Code: "invalid_arguments", Message: "arguments must be a JSON object"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return &Error{Code: "invalid_arguments", Message: "arguments must be one JSON object"}
	}
	return nil
}

// maxDepth bounds nesting; no tool takes more than an array of strings.
const maxDepth = 16

// checkValue reads one JSON value from dec, checking the keys of every
// object in it; depth 0 is the arguments object itself.
func checkValue(dec *json.Decoder, depth int) error {
	if depth > maxDepth {
		return &Error{Code: "invalid_arguments", Message: "arguments are nested too deeply"}
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			if depth == 0 && !argName(key) {
				return &Error{Code: "invalid_arguments", Message: fmt.Sprintf("argument names are lower-case ASCII, like %q", "draft_id")}
			}
			f := fold(key)
			if seen[f] {
				return &Error{Code: "invalid_arguments", Message: "an object holds the same key twice (keys that differ only in case count as the same)"}
			}
			seen[f] = true
			if err := checkValue(dec, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token() // '}'
		return err
	case json.Delim('['):
		for dec.More() {
			if err := checkValue(dec, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token() // ']'
		return err
	}
	return nil
}

func argName(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}

// fold maps each rune to the smallest of its simple case-folding orbit, so
// that keys strings.EqualFold (and encoding/json) take as equal, such as
// "K", "k" and the Kelvin sign, fold to the same string.
func fold(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		out = append(out, m)
	}
	return string(out)
}
