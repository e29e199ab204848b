package extract_test

import (
	"testing"
	"time"
)

// TestSMSTicket: a ticket's text message mailed as the whole body, its
// cells "Label:value" apart by commas, bars, semicolons or " .", its
// labels abbreviated ("PNR", "TRN", "DOJ", "DP"), its day first with a
// year of two or four digits, gives its departure-only leg: a bus's when
// a bus operator sends it or its words say bus, a train's when a train's
// label numbers it; in the zone of a stop the places data knows, else of
// the sender's country, a stop's code never an airport's. An OTP, a
// message of both kinds or of neither, and one with no zone and no Date
// header give nothing; a cancellation gives its leg cancelled.
func TestSMSTicket(t *testing.T) {
	type leg struct{ kind, status, number, ref, from, to, depart string }
	sent := time.Date(2027, 12, 2, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name, from, body string
		date             time.Time
		want             *leg
	}{
		{"a state corporation's cells apart by \" , \", a clock after an empty label",
			"KSRTC <eticket@ksrtc.in>",
			"KSRTC Depot:MYSURU , PNR NO.:K81120456 , From:MYSURU To BENGALURU SATELLITE BS , Journey Date:14/12/2027 , Time:,06:30 , Seat No.:12,13, .Class:AIRAVAT , Boarding at:MYSURU . Carry your ID.\n",
			sent, &leg{"bus", "confirmed", "", "K81120456", "MYSURU", "BENGALURU SATELLITE BS", "2027-12-14T06:30:00+05:30"}},
		{"a railway's message wrapped after its commas, codes joined by a dash",
			"Rail Alerts <alerts@railalerts.example.in>",
			"PNR:4521877390,TRN:12951,DOJ:14-12-27,3A,NDLS-MMCT,DP:16:55,\nR SHARMA+1,RAC 4,WL 2,\nFare:5210,C Fee:17.7+PG\n",
			sent, &leg{"train", "confirmed", "12951", "4521877390", "NDLS", "MMCT", "2027-12-14T16:55:00+05:30"}},
		{"bars, a heading's label before the booking's, a month's name",
			"Konkan Kings <tickets@konkankings.example.com>",
			"Booked: PNR No:KK5510234 | Bus Type:AC Sleeper | From:Pune To:Panaji | DOJ:19-Dec-2027 | Dep Time:20:30 | Seats:L4,L5\n",
			sent, &leg{"bus", "confirmed", "", "KK5510234", "Pune", "Panaji", "2027-12-19T20:30:00+05:30"}},
		{"semicolons, an unlabelled route, a train's name and number, Pakistan's zone",
			"Rail <eticket@rail.example.pk>",
			"Booking ID:PR77300214;Train:Karakoram Express 41UP;Lahore - Karachi Cantt;Date:18-12-2027;Dep:15:30;Berth:21\n",
			sent, &leg{"train", "confirmed", "41UP", "PR77300214", "Lahore", "Karachi Cantt", "2027-12-18T15:30:00+05:00"}},
		{"a code that is an airport elsewhere (DLI, Da Lat) is the sender country's",
			"Rail Alerts <alerts@railalerts.example.in>",
			"PNR:2209871144,TRN:12302,DOJ:03-12-27,SL,DLI-HWH,DP:15:05,\n",
			sent, &leg{"train", "confirmed", "12302", "2209871144", "DLI", "HWH", "2027-12-03T15:05:00+05:30"}},
		{"a cancellation is no booking: its leg is cancelled",
			"Rail Alerts <alerts@railalerts.example.in>",
			"PNR:4521877390,TRN:12951,DOJ:14-12-27,3A,NDLS-MMCT,DP:16:55,Cancelled. Refund of Rs 4120 initiated.\n",
			sent, &leg{"train", "cancelled", "12951", "4521877390", "NDLS", "MMCT", "2027-12-14T16:55:00+05:30"}},
		{"a confirmation's cancellation terms are none",
			"KSRTC <eticket@ksrtc.in>",
			"PNR NO.:K81120457 , From:MYSURU To MANGALURU , Journey Date:15/12/2027 , Time:22:10 , Seat No.:4 , Cancellation allowed till 2 hrs before departure.\n",
			sent, &leg{"bus", "confirmed", "", "K81120457", "MYSURU", "MANGALURU", "2027-12-15T22:10:00+05:30"}},
		{"a stop whose lower case is longer in bytes (İ) is cut where it was matched",
			"Otobüs <bilet@otobus.example.com.tr>",
			"PNR:OT7712345,BUS:2+1 Suit,From:İSTANBUL ALİBEYKÖY To ANKARA AŞTİ,DOJ:20-12-2027,Dep:23:30\n",
			sent, &leg{"bus", "confirmed", "", "OT7712345", "İSTANBUL ALİBEYKÖY", "ANKARA AŞTİ", "2027-12-20T23:30:00+03:00"}},
		{"an OTP names no booking",
			"Rail Alerts <alerts@railalerts.example.in>",
			"OTP:482913, Txn ID:TX77120045, Amount:Rs.5210, Valid till:17:54, Train No:12951, Doj:14/12/2027. Do not share.\n",
			sent, nil},
		{"a bus's words and a train's label: neither",
			"Travel Alerts <alerts@travelalerts.example.in>",
			"PNR:4521877391,TRN:12951,DOJ:14-12-27,NDLS-MMCT,DP:16:55,Bus transfer to the station included\n",
			sent, nil},
		{"neither a bus's sign nor a train's",
			"Travel Alerts <alerts@travelalerts.example.in>",
			"PNR:4521877392,DOJ:14-12-27,NDLS-MMCT,DP:16:55,Seat:12\n",
			sent, nil},
		{"codes, no country and no Date header: no instant",
			"Rail Alerts <alerts@railalerts.example.com>",
			"PNR:4521877393,TRN:12951,DOJ:14-12-27,NDLS-MMCT,DP:16:55,\n",
			time.Time{}, nil},
	} {
		facts := mailFacts(c.from, "", c.body, c.date)
		if c.want == nil {
			if len(facts) != 0 {
				t.Errorf("%s: facts = %+v, want none", c.name, facts)
			}
			continue
		}
		if len(facts) != 1 || facts[0].Segment == nil || facts[0].Segment.Depart == nil {
			t.Errorf("%s: facts = %+v, want one leg", c.name, facts)
			continue
		}
		s := facts[0].Segment
		got := leg{string(facts[0].Kind), s.Status, s.Number, s.Reservation, s.From.Name, s.To.Name, s.Depart.Time.Format(time.RFC3339)}
		if got != *c.want {
			t.Errorf("%s: leg = %+v, want %+v", c.name, got, *c.want)
		}
	}
}
