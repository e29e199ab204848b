package extract

import (
	"slices"
	"testing"
)

// TestReservationCodesHeadingUnderTitle: a title that ends in a
// reference's label ("Trip Confirmation", "votre dossier") over a heading
// in capitals gives no code of the heading's first word; a record
// locator of letters alone under its label still is one.
func TestReservationCodesHeadingUnderTitle(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"American Airlines - Itinerary Confirmation\n\nFLIGHT DETAILS\n\nConfirmation Code: ABCD12\n", []string{"ABCD12"}},
		{"Récapitulatif de votre dossier\nVOYAGE ALLER\nRéférence de réservation : LQ4MZP\n", []string{"LQ4MZP"}},
		{"Booking reference\nQWRTXL\n", []string{"QWRTXL"}},
		{"Booking reference: QWRTXL (quote it when you call)\n", []string{"QWRTXL"}},
		{"Confirmation\nKJ7TQW ECONOMY\n", []string{"KJ7TQW"}},
	} {
		if got := reservationCodes(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("reservationCodes(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
