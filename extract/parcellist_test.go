package extract_test

import (
	"strings"
	"testing"
	"time"
)

// TestParcelList: a notice that lists several parcels gives each: a
// shop's order left in two parcels is one order with a shipment each; a
// postal operator's digest lists packages under "Arriving Today" and
// "Arriving Soon", each its own parcel, its shipper the "FROM" of its
// block and never a scanned letter's; "expected to be delivered" is a
// parcel on its way, and a return's wording under the last parcel is
// no parcel's state.
func TestParcelList(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                []string // per fact: number, then per shipment merchant tracking carrier status
	}{
		{"Gartenwelt <service@garten.example.de>", "Ihre Bestellung ist unterwegs",
			"Ihre Bestellung wurde versandt. Die Bestellnummer lautet: GK-184409\n\nPaket 1 von 2\nSendungsnummer: 00340434161094187302\n\nPaket 2 von 2\nSendungsnummer: 00340434161094187319\n\nRücksendungen: bitte das Retourenetikett nutzen.\n",
			[]string{"GK-184409 Gartenwelt 00340434161094187302 DHL shipped, Gartenwelt 00340434161094187319 DHL shipped"}},
		{"Bushwalk <orders@bushwalk.example.com.au>", "Your order #BW40912 is on its way",
			"Your order #BW40912 has been dispatched with Australia Post.\nParcel 1 of 2 - Tracking number: LP601192745AU\nParcel 2 of 2 - Tracking number: LP601192881AU\nReturns are free within 30 days.\n",
			[]string{"BW40912 Bushwalk LP601192745AU Australia Post shipped, Bushwalk LP601192881AU Australia Post shipped"}},
		{"USPS Informed Delivery <digest@email.informeddelivery.usps.com>", "Your Daily Digest for Thu, 12/10",
			"You have mail and packages arriving soon.\nFROM AARP MEMBERSHIP\nLearn More\nThe packages below are expected to be delivered based upon data at the time this email was sent.\n" +
				"Arriving Today\tThursday, Dec 10\npackage\nFROM HOLLOW OAK POTTERY\nTracking Number: 9205590164917312751089\nExpected Delivery: Thursday, Dec 10\nTrack Package\n" +
				"Arriving Soon\npackage\nFROM B&H PHOTO VIDEO\nTracking Number: 9361 2898 7870 0482 1557 33\nExpected Delivery by Saturday, Dec 12\nTrack Package\n",
			[]string{" HOLLOW OAK POTTERY 9205590164917312751089 USPS out_for_delivery", " B&H PHOTO VIDEO 9361289878700482155733 USPS shipped"}},
		// Parcels as rows of a table under a header that names the
		// tracking number's column (another column's "Shipment" too).
		{"Fernhill Books <orders@fernhill.example.co.uk>", "Your order FB-20931 has shipped",
			"Your order FB-20931 has shipped in 2 shipments.\n\nShipment\tCarrier\tTracking number\tItems\n1 of 2\tUPS\t1Z4A9V83E038127748\tThe Overstory\n2 of 2\tUPS\t1Z4A9V83E038127819\tBraiding Sweetgrass\nReturns are free within 30 days.\n",
			[]string{"FB-20931 Fernhill Books 1Z4A9V83E038127748 UPS shipped, Fernhill Books 1Z4A9V83E038127819 UPS shipped"}},
		// One package, its section's heading far below the first lines.
		{"USPS Informed Delivery <digest@email.informeddelivery.usps.com>", "Your Daily Digest for Mon, 12/7",
			"You have mail arriving soon.\n" + strings.Repeat("Scanned image of your mail piece\nFROM CAPITAL ONE\nLearn More\n", 5) +
				"Arriving Today\tMonday, Dec 7\npackage\nFROM CHEWY INC\nTracking Number: 9400 1118 9922 3850 1746 24\nExpected Delivery: Monday, Dec 7\n",
			[]string{" CHEWY INC 9400111899223850174624 USPS out_for_delivery"}},
		// An older digest's blocks: the number first, its sender and
		// state under it; the first block's lines are not the second's.
		{"USPS Informed Delivery <USPSInformedDelivery@usps.gov>", "Informed Delivery Daily Digest",
			"You have 2 mailpieces and 2 packages arriving soon.\nYour Packages\n" +
				"Tracking Number: 9400111899223365492107\nSender: ZAPPOS.COM\nStatus: Out for Delivery\nExpected Delivery: Wednesday 08/22/2018\n" +
				"Tracking Number: 9200190190305612084716\nSender: CHEWY INC\nStatus: In Transit\nExpected Delivery: Friday 08/24/2018\n" +
				"Mail may arrive several days after you receive this notification.\n",
			[]string{" ZAPPOS.COM 9400111899223365492107 USPS out_for_delivery", " CHEWY INC 9200190190305612084716 USPS shipped"}},
		// The sender above the number, the day under it: a block's lines
		// under its number are not the next one's; the second parcel of
		// a section ("Arriving Today") is in it too; "Arriving Soon"
		// starts another, "Delivered" another still.
		{"USPS Informed Delivery <USPSInformeddelivery@email.informeddelivery.usps.com>", "Your Daily Digest for Mon, 3/13 is ready to view",
			"Arriving Today\tMonday, Mar 13\nFROM PAPER MILL STATIONERS\nTracking Number\n9405 5036 9930 0123 4567 83\nExpected Delivery: Today, 03/13\nTrack Package\n" +
				"FROM HARRY AND DAVID\nTracking Number: 9420061205420188773157\nExpected Delivery: Monday, Mar 13\nTrack Package\n" +
				"Arriving Soon\nFROM WALGREENS MAIL SERVICE\nTracking Number: 9400110892201477362587\nExpected Delivery by Wednesday, 03/15\n" +
				"Delivered\nFROM ULTA BEAUTY\nTracking Number: 9300102220301844619025\nDelivered, In/At Mailbox: Saturday, 03/11\n",
			[]string{" PAPER MILL STATIONERS 9405503699300123456783 USPS out_for_delivery", " HARRY AND DAVID 9420061205420188773157 USPS out_for_delivery",
				" WALGREENS MAIL SERVICE 9400110892201477362587 USPS shipped", " ULTA BEAUTY 9300102220301844619025 USPS delivered"}},
		// A heading whose words say no state ("Awaiting Pickup",
		// "Ausstehend") ends the section above it: the parcel under it
		// has no state of its own, not the "Delivered" of the one before.
		// A line every block repeats ("Track Package") is no heading.
		{"USPS Informed Delivery <USPSInformeddelivery@email.informeddelivery.usps.com>", "Your Daily Digest for Fri, 11/13 is ready to view",
			"PACKAGES\n\nDelivered\n\nFROM ULTA BEAUTY\nTracking Number\n9300 1022 2030 1844 6190 25\nDelivered, In/At Mailbox: Thursday, 11/12\nTrack Package\n\n" +
				"FROM HARRY AND DAVID\nTracking Number: 9420061205420188773157\nTrack Package\n\nAwaiting Pickup\n\nFROM PAPER MILL\nTracking Number\n9405 5036 9930 0123 4567 83\nTrack Package\n",
			[]string{" ULTA BEAUTY 9300102220301844619025 USPS delivered", " HARRY AND DAVID 9420061205420188773157 USPS delivered", " PAPER MILL 9405503699300123456783 USPS shipped"}},
		// The number first: a heading under a block's lines ends its
		// section too.
		{"USPS Informed Delivery <USPSInformedDelivery@usps.gov>", "Informed Delivery Daily Digest",
			"Delivered\nTracking Number: 9400111899223365492107\nSender: ZAPPOS.COM\n\nAusstehend\nTracking Number: 9200190190305612084716\nSender: CHEWY INC\n",
			[]string{" ZAPPOS.COM 9400111899223365492107 USPS delivered", " CHEWY INC 9200190190305612084716 USPS shipped"}},
		// Parcels as a table's rows: each row's state and sender in the
		// columns its header names.
		{"USPS Informed Delivery <USPSInformeddelivery@email.informeddelivery.usps.com>", "Your Daily Digest for Wed, 2/12 is ready to view",
			"YOUR PACKAGES\nFrom\tTracking Number\tExpected Delivery\nBOOKSHOP.ORG\t9400111899223812345673\tToday\nL.L.BEAN INC\t9405503699300123456783\tFriday, 02/14\n",
			[]string{" BOOKSHOP.ORG 9400111899223812345673 USPS out_for_delivery", " L.L.BEAN INC 9405503699300123456783 USPS shipped"}},
		// A carrier's help mail that shows a number says nothing of a
		// parcel.
		{"UPS <mcinfo@ups.com>", "Get more from UPS My Choice",
			"Where do I find my number?\nTracking number: 1Z4A9V83E038127748\nIt starts with 1Z and has 18 characters.\n",
			nil},
		// A letter's scan id is no parcel: a digest without packages.
		{"USPS Informed Delivery <digest@email.informeddelivery.usps.com>", "Your Daily Digest for Tue, 12/8",
			"You have mail arriving soon.\nFROM CAPITAL ONE\nLearn More\nArriving Today\nNo packages available to display.\n",
			nil},
	} {
		var got []string
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2026, 12, 8, 7, 0, 0, 0, time.UTC)) {
			o := f.Order
			if o == nil {
				continue
			}
			var ships []string
			for _, s := range o.Shipments {
				ships = append(ships, o.Merchant+" "+s.Tracking+" "+s.Carrier+" "+s.Status)
			}
			got = append(got, o.Number+" "+strings.Join(ships, ", "))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
