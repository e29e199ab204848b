package extract_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mailnode/extract"
	"mailnode/mail/imaptest"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestWordSoupGivesNothing: the sync benchmark's generated mail is
// commerce's and travel's words in random order under subjects such as
// "Bestellung number shipped #1029": a stranger's page of the right words
// is no order, bill or journey. (A rule for a delivery notice whose
// subject numbers the order and whose body has no digit read 217 of
// 3,000 such mails as orders before it asked for a short body saying the
// subject's state.)
func TestWordSoupGivesNothing(t *testing.T) {
	dir := t.TempDir()
	if _, err := imaptest.GenerateMaildir(dir, 3000, 1); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "/cur/") {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, f := range extract.Extract(mime.Parse(raw), msgauth.Verdict{}).Facts {
			counts[f.Kind]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) > 0 {
		t.Errorf("facts from generated word soup: %v, want none", counts)
	}
}
