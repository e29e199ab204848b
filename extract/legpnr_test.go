package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestLegsOwnLocators: an agency's e-ticket for a trip on two airlines
// prints each leg's own record locator beside it ("PNR  K7QW2M" under
// the outward flight, "PNR  ZX4T9P" under the return), and each
// airline knows its leg by its own; and it writes each number with a
// hyphen ("QP-1402") under an airline no table here names, over the
// leg's airports and clocks.
func TestLegsOwnLocators(t *testing.T) {
	sent := time.Date(2027, 2, 20, 9, 0, 0, 0, time.UTC)
	leg := func(from, to, day, airline, number, pnr, dep, arr string, pnrFirst bool) string {
		s := from + " - " + to + "\n" + day + " • Non stop\n\n"
		if pnrFirst {
			s += "Airline PNR: " + pnr + "\n\n" + airline + "\n" + number + "\n\n"
		} else {
			s += airline + "\n" + number + "\n\nPNR\t" + pnr + "\n\n"
		}
		return s + "\t" + from + "\n" + dep + "\n" + day + "\n\n2h\t" + to + "\n" + arr + "\n" + day + "\n\n"
	}
	for _, tt := range []struct {
		name     string
		pnrFirst bool
	}{{"each locator under its leg's number", false}, {"each locator over its leg's number", true}} {
		t.Run(tt.name, func(t *testing.T) {
			text := "Hi Asha, thank you for booking with us.\nBooking Confirmed\nBooking ID: NF7Q2W1HRLTT0012\n\nBOOKING DETAILS\n\n" +
				leg("Mumbai", "Goa", "Fri, 12 Mar 2027", "Akasa Air", "QP-1402", "K7QW2M", "BOM 06:10 hrs", "07:25 hrs GOI", tt.pnrFirst) +
				leg("Goa", "Mumbai", "Sun, 14 Mar 2027", "SpiceJet", "SG-154", "ZX4T9P", "GOI 19:40 hrs", "20:55 hrs BOM", tt.pnrFirst) +
				"PAYMENT INFORMATION\nTotal Price ₹ 9120\n"
			var got []string
			for _, f := range mailFacts("Yatra Trips <noreply@yatratrips.example>", "E-Ticket for your flight booking", text, sent) {
				if s := f.Segment; s != nil && s.Type == "flight" && s.From != nil && s.To != nil {
					got = append(got, s.Number+" "+s.From.Code+"-"+s.To.Code+" "+s.Reservation)
				}
			}
			want := []string{"QP 1402 BOM-GOI K7QW2M", "SG 154 GOI-BOM ZX4T9P"}
			if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
				t.Errorf("flights %q, want %q", got, want)
			}
		})
	}
}

// routesOf are the flights of facts with both ends, as "number
// from-to reservation".
func routesOf(facts []extract.Fact) []string {
	var got []string
	for _, f := range facts {
		if s := f.Segment; s != nil && s.Type == "flight" && s.From != nil && s.To != nil {
			got = append(got, s.Number+" "+s.From.Code+"-"+s.To.Code+" "+s.Reservation)
		}
	}
	return got
}

// TestCardStops: an agency's card of a flight, each a class.
//   - The trip's confirmation codes listed as names over codes, no
//     label ("Air Canada" over "X7KQ2M", the agency's name over its
//     own): the airline's code is the flight's, the agency's is not.
//   - A stop's city's name over its airport's code ("London" over
//     "LGW"): the stop is that airport, not the one the city's name
//     alone means (LHR).
func TestCardStops(t *testing.T) {
	for _, tt := range []struct{ name, subject, text, want string }{
		{"the airline's code under its name", "View your flight details for your Vancouver trip",
			"Here are your travel and airline confirmation codes\n\nYour confirmation codes\nAir Canada\nX7KQ2M\nNorthbank Travel\nN-QK2231\n\n" +
				"Outbound to Vancouver\nJune 3, 2027\n\n4h 15m  Nonstop\nAir Canada - AC115\nToronto\nYYZ\n7:00 a.m.\n\nVancouver\nYVR\n9:15 a.m.\n\nTotal US$612.00\n",
			"AC 115 YYZ-YVR X7KQ2M"},
		{"the code under its city's name", "View your flight details for your Venice trip",
			"Your confirmation codes\nBritish Airways\nQ4TRZ8\n\nOutbound to Venice\nJune 3, 2027\n\n2h 15m  Nonstop\nBritish Airways - BA2490\nLondon\nLGW\n8:05 a.m.\n\nVenice\nVCE\n11:20 a.m.\n",
			"BA 2490 LGW-VCE Q4TRZ8"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := routesOf(mailFacts("Northbank Travel <trips@northbank.example>", tt.subject, tt.text, time.Date(2027, 5, 2, 9, 0, 0, 0, time.UTC)))
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("flights %q, want [%s]", got, tt.want)
			}
		})
	}
}
