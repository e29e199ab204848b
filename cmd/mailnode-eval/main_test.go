package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreDir scores a folder outside the evaluation set: a mail whose
// label holds is counted, a wrong label is listed with -v, and a folder
// without mails is an error rather than an empty table.
func TestScoreDir(t *testing.T) {
	dir := t.TempDir()
	mail := "From: Example Air <noreply@example-air.test>\r\nTo: a@example.test\r\n" +
		"Date: Mon, 01 Mar 2027 10:00:00 +0000\r\nSubject: Booking confirmation K7XQ2M\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n\r\n" +
		"Booking reference: K7XQ2M\r\n\r\nFlight LH1792 Munich (MUC) - Lisbon (LIS)\r\n" +
		"14 Mar 2027 departure 09:55, arrival 12:15\r\n"
	labels := `{"expected": [{"Kind": "flight", "Mail": "m", "Fields": {"number": "LH1792", "from": "MUC", "to": "LIS", "reservation": "K7XQ2M"}},
	{"Kind": "bill", "Mail": "m", "Fields": {"number": "NOPE-1"}}]}`
	if err := os.WriteFile(filepath.Join(dir, "m.eml"), []byte(mail), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.json"), []byte(labels), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if rc := run([]string{"-score", dir, "-v"}, &out, &errs); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs.String())
	}
	for _, want := range []string{"| flight | 4 | 1.000 | 1.000 |", "| bill | 1 |", `bill m number: want "NOPE-1"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, "labels.json"), []byte(`{"expected": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if rc := run([]string{"-score", empty}, &out, &errs); rc == 0 {
		t.Error("a folder without mails scored")
	}
}
