// Package jsonhttp writes the node's plain HTTP JSON answers: the
// {error, detail} bodies the spec gives for refusals, and uncached JSON.
// The agents' door (gateway) and the phones' (gateway/phone) answer alike.
package jsonhttp

import (
	"encoding/json"
	"net/http"
)

// Error answers status with {"error": code, "detail": detail}; detail is
// left out when empty. Both are chosen texts, never request content.
func Error(w http.ResponseWriter, status int, code, detail string) {
	body := map[string]string{"error": code}
	if detail != "" {
		body["detail"] = detail
	}
	Write(w, status, body)
}

// Write answers status with v as JSON, not to be cached.
func Write(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
