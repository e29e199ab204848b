package extract_test

import (
	"strings"
	"testing"
	"time"
)

// TestChainConfirmationName: a hotel chain's confirmation (issue 46,
// foreign-23's Courtyard mail) prints the property's name, two districts
// apart by a slash, over an American address written without commas,
// its number, street, town and state before the ZIP code; and the stay's
// total over "Room 1", which reads as a street's name and number. The
// name is the property's, never the total's currency or the amount.
func TestChainConfirmationName(t *testing.T) {
	const head = "SUMMARY OF CHARGES\nCONTACT US\nResidence Inn Denver Downtown/Union Station\n1725 Wynkoop Street Denver Colorado 80202 USA\n+1-303-555-0100\n"
	const body = "Thank you for booking directly with us, Ana Ruiz.\nConfirmation Number: 88310422\nCheck-In:\nFriday, May 14, 2027\n04:00 PM\nCheck-Out:\nSunday, May 16, 2027\n11:00 AM\n" +
		"Total for Stay (all rooms)\n389.20 USD\nRoom 1\nRoom Type\nStudio, 1 King\nSummary Of Charges\nFriday, May 14, 2027\n389.20 USD\n"
	for _, tt := range []struct {
		name, text, want string
	}{
		{"the name over its address", head + body, "Residence Inn Denver Downtown/Union Station"},
		{"no name printed: the total is none", body, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			facts := mailFacts("Residence Inn by Marriott <residenceinn@res.marriott.example>", "Reservation Confirmation #88310422", tt.text, time.Date(2027, 4, 1, 9, 0, 0, 0, time.UTC))
			stays := 0
			for _, f := range facts {
				if s := f.Segment; s != nil && s.Type == "hotel" {
					stays++
					if strings.ContainsAny(s.Hotel, "0123456789") || tt.want != "" && s.Hotel != tt.want {
						t.Errorf("hotel %q, want %q", s.Hotel, tt.want)
					}
				}
			}
			if stays != 1 {
				t.Errorf("%d stays, want 1", stays)
			}
		})
	}
}
