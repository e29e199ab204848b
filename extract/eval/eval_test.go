package eval_test

import (
	"bytes"
	"testing"

	"mailnode/extract"
	"mailnode/extract/eval"
)

// TestSyntheticGoals holds the synthetic set to the goals, so a
// change that breaks an extractor fails here and not only in `make eval`.
func TestSyntheticGoals(t *testing.T) {
	syn, err := eval.Load("testdata/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	scores, misses := eval.Compare(syn.Expected, eval.Entities(extract.Merge(eval.Extracted(syn.Mails))))
	for _, kind := range []string{extract.KindOrder, extract.KindBill} {
		if s := scores[kind]; s.Precision() < 0.97 || s.Recall() < 0.90 {
			t.Errorf("%s: precision %.3f, recall %.3f; misses: %+v", kind, s.Precision(), s.Recall(), misses)
		}
	}
	if same, total := eval.ShuffleCheck(syn.Mails, 5, 2); same != total {
		t.Errorf("shuffled replay: %d of %d sequences identical", same, total)
	}
}

// TestGenerateIsStable: the stored set is what the generator writes, so
// the labels in testdata can be regenerated and reviewed as a diff.
func TestGenerateIsStable(t *testing.T) {
	a, b := eval.Generate(1, 60, 45, 40), eval.Generate(1, 60, 45, 40)
	stored, err := eval.Load("testdata/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Mails) != len(stored.Mails) {
		t.Fatalf("generated %d mails, stored %d: run go run ./cmd/mailnode-eval -generate", len(a.Mails), len(stored.Mails))
	}
	for i := range a.Mails {
		if !bytes.Equal(a.Mails[i].Raw, b.Mails[i].Raw) {
			t.Fatalf("Generate is not deterministic at %s", a.Mails[i].Name)
		}
	}
}
