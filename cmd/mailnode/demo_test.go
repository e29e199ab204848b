package main

import (
	"bytes"
	"strings"
	"testing"

	"mailnode/app"
)

// TestPrintSummaries (issue 42 item 9): the "*" before unread subjects
// is explained in the header, when there is one.
func TestPrintSummaries(t *testing.T) {
	read := app.Summary{Folder: "INBOX", From: "a@example.com", Subject: "Seen it", Flags: `\Seen`}
	unread := app.Summary{Folder: "INBOX", From: "b@example.com", Subject: "New one"}
	tests := []struct {
		name    string
		ms      []app.Summary
		want    []string
		wantNot []string
	}{
		{"one unread", []app.Summary{read, unread}, []string{"SUBJECT (* unread)\n", "* New one", "  Seen it"}, []string{"* Seen it"}},
		{"all read", []app.Summary{read}, []string{"SUBJECT\n", "Seen it"}, []string{"*"}},
		{"none", nil, []string{"SUBJECT\n"}, []string{"*"}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		printSummaries(&b, tt.ms)
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: printSummaries = %q, want %q in it", tt.name, b.String(), w)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: printSummaries = %q, want no %q", tt.name, b.String(), w)
			}
		}
	}
}
