package extract

import (
	"testing"

	"mailnode/extract/lang"
)

func TestStatementGateCoversPhrases(t *testing.T) {
	for _, p := range lang.Entries("bill.statement") {
		if !statementGate(p) {
			t.Errorf("bill.statement phrase %q holds none of statementGates", p)
		}
	}
}
