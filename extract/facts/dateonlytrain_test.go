package facts_test

import (
	"strings"
	"testing"
	"time"
)

// A travel insurer's policy mail and a bank's standing-order notice, from
// established, authenticated domains, are no train trips in
// get_upcoming_travel: "From:" / "To:" and a day after a journey's label
// ("Travel date:", "Outbound:") in a mail with no sign of a train make no
// date-only leg (traindateonly.go, railEvidence). The eighth outside
// review's proof.
func TestOrdinaryMailIsNoDateOnlyTrain(t *testing.T) {
	for _, tc := range []struct{ from, dom, subject, body string }{
		{"Cover Co <policies@coverco.co.uk>", "coverco.co.uk", "Your travel insurance policy",
			"Thank you for buying single-trip cover.\r\n\r\nPolicy number: TI-448812\r\nFrom: United Kingdom\r\nTo: Spain\r\nTravel date: 14/03/2027\r\nPremium: £23.40\r\n"},
		{"My Bank <noreply@mybank.co.uk>", "mybank.co.uk", "Standing order set up",
			"Your standing order has been set up.\r\nFrom: Current Account\r\nTo: Savings Account\r\nOutbound: 13/02/2027\r\nAmount: £200.00\r\n"},
	} {
		seed := review7Mail(tc.from, tc.dom, "Welcome", "Hello Alex.\r\n", 1)
		m := review7Mail(tc.from, tc.dom, tc.subject, tc.body, 2)
		fx := review7Store(t, review7Msg(1, seed, time.Now().AddDate(-1, 0, 0)), review7Msg(2, m, time.Now()))
		if got := fx.trips(t); strings.Contains(got, `"train"`) {
			t.Errorf("%s's %q is a train trip: %s", tc.dom, tc.subject, got)
		}
	}
}
