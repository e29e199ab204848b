package extract_test

// The fourteenth outside review (2026-11-30, an attacker given the docs
// and a clone): proofs of what works today, each with the safe result it
// expects. Most are of flights by their parts (flightparts.go, 8ac95840
// and f11e513a) and the train after a flight under a train's heading
// (text.go: flightThenHeadedTrain).

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
)

// review14Legs are a mail's travel legs as "kind number FROM-TO depart
// arrive" (RFC 3339), for a mail received on 10 January 2027.
func review14Legs(from, subject, text string) []string {
	var out []string
	for _, f := range mailFacts(from, subject, text, time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)) {
		s := f.Segment
		if s == nil {
			continue
		}
		fr, to, dep, arr := "", "", "", ""
		if s.From != nil {
			fr = s.From.Code
			if fr == "" {
				fr = s.From.Name
			}
		}
		if s.To != nil {
			to = s.To.Code
			if to == "" {
				to = s.To.Name
			}
		}
		if s.Depart != nil {
			dep = s.Depart.Format(time.RFC3339)
		}
		if s.Arrive != nil {
			arr = s.Arrive.Format(time.RFC3339)
		}
		out = append(out, f.Kind+" "+s.Number+" "+fr+"-"+to+" "+dep+" "+arr)
	}
	return out
}

// ATTACK (HIGH, a real flight's time changed): flightFromParts takes the
// first two clocks of a number's lines, "labels differ from airline to
// airline, the order of a flight's stops does not". In an airline's
// schedule change, whose layout no layout reader knows, the first two
// clocks are the old ones: "Previous: 14 Mar 2027 11:40 - 13:40" over
// "New: 14 Mar 2027 07:10 - 09:10" gives LH 1234 at 11:40, the time the
// airline has just withdrawn; the newest mail is the booking's latest
// word, so the merged trip tells the person to come four and a half
// hours after the plane left. Before 8ac95840 the mail gave no flight
// (the booking's confirmation's time stood).
// SAFE: 07:10 - 09:10, or no flight: a line labelled as the old, previous
// or former time (or "was") gives no clock to a flight's parts (the
// labels of the schedule-change readers, if any, or a "before/after"
// pair of lines where the later is the flight's).
func TestReview14PartsScheduleChangeKeepsOldTime(t *testing.T) {
	for _, body := range []string{
		"Important: your flight has changed\nBooking code: QZ7WKP\n\nLH1234\nRome Fiumicino\nMunich\nPrevious: 14 Mar 2027 11:40 - 13:40\nNew: 14 Mar 2027 07:10 - 09:10\n",
		"Your flight time has changed\nBooking code: QZ7WKP\n\nLH1234\nRome Fiumicino\nMunich\n14 Mar 2027\nWas: 11:40 - 13:40\nNow: 07:10 - 09:10\n",
	} {
		for _, leg := range review14Legs("Lufthansa <noreply@lufthansa.com>", "Schedule change", body) {
			if strings.Contains(leg, "T11:40") {
				t.Errorf("schedule change read at its old time: %s\n%s", leg, body)
			}
		}
	}
}

// ATTACK (HIGH, a real flight's day changed): flightFromParts looks for
// the departure's day on its clock's line, then on every line above it
// up to four lines above the number's window, and only then below. An
// itinerary that prints "Date: 14 Mar 27" under its clocks and
// "Booked on: 10 Jan 2027" in its head gives the flight on the day of
// booking (10 January, already past: the trip vanishes from upcoming
// travel); in a two-flight mail the return's day is the outbound's
// ("On 14 Mar 27" of the flight above), two days early.
// SAFE: T3 405 on 14 March; T3 406 on 16 March (a day above the number
// counts only inside the number's own window and never across another
// number's lines or a booking's/issue's label; a day below the clocks
// inside the window wins over one outside it).
func TestReview14PartsDayFromAnotherLine(t *testing.T) {
	got := review14Legs("Eastern Airways <bookings@easternairways.com>", "Your trip",
		"Booking reference: ZKQW7P\nBooked on: 10 Jan 2027\n\nFlight T3 0405\nSouthampton\nTo:\nAberdeen\nDepart:\t07:40\nArrive:\t09:10\nDate:\t14 Mar 27\n")
	for _, leg := range got {
		if strings.Contains(leg, "T3 405") && !strings.Contains(leg, "2027-03-14T07:40") {
			t.Errorf("booked-on day taken for the flight's: %s", leg)
		}
	}
	got = review14Legs("Eastern Airways <bookings@easternairways.com>", "Your trip",
		"Booking reference: ZKQW7P\n\nFlight T3 0405\nSouthampton\nTo:\nAberdeen\nDepart:\t07:40\nArrive:\t09:10\nOn 14 Mar 27\n\nFlight T3 0406\nAberdeen\nTo:\nSouthampton\nDepart:\t17:40\nArrive:\t19:10\nOn 16 Mar 27\n")
	for _, leg := range got {
		if strings.Contains(leg, "T3 406") && !strings.Contains(leg, "2027-03-16T17:40") {
			t.Errorf("return flight on the outbound's day: %s", leg)
		}
	}
}

// ATTACK (MEDIUM, a false flight): partsFlights runs in a mail "that
// names its booking (a code or a booking's sign)", and booking.sign holds
// "your flight" and "confirmed". A fare newsletter or a deals mail that
// says "find your flight" / "Your flight deals" / "Your flight. Your way."
// over a schedule's rows (a number, two airports, clocks and a day) is a
// booked flight: from an airline's established newsletter domain it is a
// trusted trip the person never booked. TestFlightsByParts's newsletter
// gives none only because it says neither phrase. Before 8ac95840 these
// gave no flight (the TAP-like rows gave a nonsense train).
// SAFE: no flight (a booking's code, or a sign stronger than "your
// flight", before a flight is read by its parts; a promotion's words veto).
func TestReview14PartsNewsletterYourFlight(t *testing.T) {
	for _, c := range []struct{ from, subject, body string }{
		{"SWISS <news@notifications.swiss.com>", "Fly this spring",
			"Fly this spring: find your flight\nSat. 6 March 2027: Vienna – Zurich\n07:10 h\nVienna Vienna Intl (VIE)\n08:35 h\nZurich Zurich (ZRH)\nLX 1579\n"},
		{"Deals <deals@cheapflights.example>", "This week's flights",
			"Your flight deals for this week\n\nLH 1234\nRome\nTo:\nMunich\nDate: 14 Mar 27\nDepart: 07:10\nArrive: 09:10\n"},
		{"Deals <deals@cheapflights.example>", "Timetable",
			"Your flight. Your way.\n\n Route | Flight | Date | Dep | Arr \nLISBOA PORTO TP1940 K 12Mar 07:00 08:00\nPORTO LISBOA TP1941 K 13Mar 09:00 10:00\n"},
	} {
		for _, leg := range review14Legs(c.from, c.subject, c.body) {
			if strings.HasPrefix(leg, extract.KindFlight) {
				t.Errorf("%s: newsletter gave %s", c.from, leg)
			}
		}
	}
}

// ATTACK (MEDIUM, a false train): flightThenHeadedTrain lets the train
// rules read any mail whose flights were read and one of whose lines is a
// train's word alone. An airline's confirmation with a "Getting to the
// airport" block ("Train", "Departure 05:20 Frankfurt Hbf", "Arrival
// 05:35 Frankfurt Flughafen", "S8 every 15 minutes"), or a menu's
// "Train:" gives a train leg with the booking's code: the agent sees a
// booked train at 05:20 that is only advice. Before 8ac95840 the mail gave
// the flight alone.
// SAFE: the flight alone (the train rules after a flight need a train's
// own booking sign: its number, a coach or seat, or a fare; or the
// heading must be followed by a numbered train).
func TestReview14AirportTrainAdviceIsTrain(t *testing.T) {
	for _, body := range []string{
		"Your booking is confirmed\nBooking code: QZ7WKP\n\nLH 1234\nFrankfurt (FRA) - Munich (MUC)\n14 Mar 2027 07:10 - 08:10\n\nGetting to the airport\nTrain\nDeparture 05:20 Frankfurt Hbf\nArrival 05:35 Frankfurt Flughafen\nS8 every 15 minutes\n",
		"Your booking is confirmed\nBooking code: QZ7WKP\n\nLH 1234\nFrankfurt (FRA) - Munich (MUC)\n14 Mar 2027 07:10 - 08:10\n\nFlight | Hotel | Car | Train\nTrain:\nDeparture 09:20 Munich Airport\nArrival 09:55 Munich Hbf\n",
	} {
		for _, leg := range review14Legs("Lufthansa <noreply@lufthansa.com>", "Your booking", body) {
			if strings.HasPrefix(leg, extract.KindTrain) {
				t.Errorf("airport-transfer advice read as a booked train: %s", leg)
			}
		}
	}
}

// ATTACK (HIGH, a real flight's airports changed): flightFromParts takes
// the first two airports its lines name, and airportCodes reads any known
// three-letter code in capitals on a line with a colon or a dash. A
// passenger's name in capitals between the number and its stops
// ("Passenger: MR BEN LEE") names Benghazi (BEN) and Leesburg (LEE): the
// flight Southampton - Aberdeen becomes BEN -> LEE, zones and all; after
// the stops it takes the arrival's place (SOU -> BEN, arrival lost). Any
// name, a stranger's "booking" for the person or the person's own, does
// this (BOB, TOM, KIM, BEN, ANN, LEE, TIM are airports).
// SAFE: SOU -> ABZ (in flightFromParts a code from a line labelled as a
// passenger's, a name's, or a line of words in capitals without a place's
// shape counts for nothing; or a code counts only in parentheses, beside
// a clock, or on a route line).
func TestReview14PartsPassengerNameAsAirports(t *testing.T) {
	for _, body := range []string{
		"Booking reference: ZKQW7P\n\nFlight T3 0405\nPassenger: MR BEN LEE\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\nDepart:\t07:40\nArrive:\t09:10\n",
		"Booking reference: ZKQW7P\n\nFlight T3 0405\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\nDepart:\t07:40\nArrive:\t09:10\nPassenger: MR BEN LEE\n",
	} {
		for _, leg := range review14Legs("Eastern Airways <bookings@easternairways.com>", "Your trip", body) {
			if strings.Contains(leg, "T3 405") && !strings.Contains(leg, " SOU-ABZ ") {
				t.Errorf("passenger's name read as airports: %s", leg)
			}
		}
	}
}

// ATTACK (LOW, a real flight lost): groundHeading ends a flight's parts at
// a line that is a coach's, bus's or train's word alone, or any such word
// with a number (surfaceVehicleRE). A US fare table's "Cabin" / "Coach"
// (economy) or "Boarding by bus 2 from gate 4" between the number and its
// clocks ends the window: the flight the parts reader gives without these
// lines is gone, and nothing is read in its place.
// SAFE: T3 405 SOU -> ABZ as without the line (a ground heading ends the
// lines only when a ground leg follows it: a station or a train's number
// and clocks; "Coach" after a cabin's label is a class).
func TestReview14PartsCoachClassEndsFlight(t *testing.T) {
	for _, body := range []string{
		"Booking reference: ZKQW7P\n\nFlight T3 0405\nCabin\nCoach\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\nDepart:\t07:40\nArrive:\t09:10\n",
		"Booking reference: ZKQW7P\n\nFlight T3 0405\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\nBoarding by bus 2 from gate 4\nDepart:\t07:40\nArrive:\t09:10\n",
	} {
		got := review14Legs("Eastern Airways <bookings@easternairways.com>", "Your trip", body)
		if len(got) != 1 || !strings.Contains(got[0], "T3 405 SOU-ABZ") {
			t.Errorf("flight lost: %v\n%s", got, body)
		}
	}
}

// review14Statuses are a mail's flights as "number status".
func review14Statuses(from, subject, text string) []string {
	var out []string
	for _, f := range mailFacts(from, subject, text, time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)) {
		if f.Kind == extract.KindFlight && f.Segment != nil {
			out = append(out, f.Segment.Number+" "+f.Segment.Status)
		}
	}
	return out
}

// ATTACK (MEDIUM, a false flight in a real booking): partsFlights reads
// every number the layout readers left in a booking's mail, with no regard
// to what the lines around it say of it. An airline's upsell under the
// booked flight ("Want to travel later that day? Seats are still
// available on:" and a second flight's block) is a second confirmed
// flight of the booking (its code and all): the agent sees two flights
// the same day and may tell the person the later one is theirs.
// SAFE: T3 405 alone (a number under an offer's, an alternative's or an
// availability's words is no flight of the booking; or parts read only
// numbers in the booking's own itinerary block).
func TestReview14PartsUpsellIsBooked(t *testing.T) {
	got := review14Statuses("Eastern Airways <bookings@easternairways.com>", "Your trip",
		"Booking reference: ZKQW7P\n\nFlight T3 0405\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\nDepart:\t07:40\nArrive:\t09:10\n\nWant to travel later that day? Seats are still available on:\nFlight T3 0407\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\nDepart:\t15:40\nArrive:\t17:10\n")
	for _, s := range got {
		if strings.HasPrefix(s, "T3 407") {
			t.Errorf("an offered flight read as booked: %v", got)
		}
	}
}

// ATTACK (MEDIUM, a real cancellation lost): a flight's own status line
// is not read, neither by flightFromParts (Status: confirmed always) nor
// by the layout readers: an itinerary whose first leg says "Status:
// cancelled" and whose second says "Status: confirmed" (a disruption's
// rebooking, as SWISS prints it) gives both legs confirmed, and the
// mail's later date makes it the booking's latest word.
// SAFE: LX 1579 cancelled (a leg's status label in its own lines sets its
// status; a cancelled word there never leaves it confirmed).
func TestReview14LegStatusCancelledIgnored(t *testing.T) {
	for _, body := range []string{
		"SWISS booking code:\nWQ4ZTP\n\nYour flight itinerary\nSat. 6 March 2027: Vienna – Zurich\n07:10 h\nVienna Vienna Intl (VIE)\n08:35 h\nZurich Zurich (ZRH)\nLX 1579\nStatus:\ncancelled\nSun. 7 March 2027: Zurich – Lisbon\n22:15 h\nZurich Zurich (ZRH)\n00:20 h +1\nLisbon Lisbon (LIS)\nLX 2088\nStatus:\nconfirmed\n",
		"SWISS booking code: WQ4ZTP\n\nLX 1579\nVienna (VIE) - Zurich (ZRH)\n6 Mar 2027 07:10 - 08:35\nStatus: Cancelled\n\nLX 2088\nZurich (ZRH) - Lisbon (LIS)\n7 Mar 2027 22:15 - 00:20\nStatus: Confirmed\n",
	} {
		got := review14Statuses("SWISS <noreply@notifications.swiss.com>", "Your trip", body)
		for _, s := range got {
			if s == "LX 1579 confirmed" {
				t.Errorf("a leg whose status says cancelled read as confirmed: %v", got)
			}
		}
	}
}

// ATTACK (HIGH, a real flight's airport and time moved): flightFromParts
// resolves a city's name that means several airports by the other end's
// country (airportNear: "a city of two countries by the other end's"),
// meant for Aberdeen in Scotland or South Dakota. On an intercontinental
// flight the other end's country is the wrong one: "London" to "Toronto
// (YYZ)" is London, Ontario (YXU), and "Paris" to "Dallas (DFW)" is Paris,
// Texas (PRX). The departure's clock is then read in the other
// continent's zone (10:40 London becomes 10:40 Toronto, five hours
// later), and the trip leaves from a town the person never goes to.
// SAFE: LHR (London's airports, or none: a city whose name is a capital's
// or a large airport's city means that one; the other end's country
// chooses only between namesakes of like size, or only on a domestic
// route where the name has an airport in one country alone).
func TestReview14PartsCityResolvedByOtherEndsCountry(t *testing.T) {
	for _, c := range []struct{ from, body, wrong string }{
		{"Air Canada <confirmation@aircanada.ca>",
			"Booking reference: ZKQW7P\n\nFlight AC 869\nLondon\nTo:\nToronto (YYZ)\nDate:\t14 Mar 27\nDepart:\t10:40\nArrive:\t13:10\n", "YXU"},
		{"American Airlines <no-reply@info.email.aa.com>",
			"Record locator: ZKQW7P\n\nFlight AA 49\nParis\nTo:\nDallas (DFW)\nDate:\t14 Mar 27\nDepart:\t10:40\nArrive:\t14:10\n", "PRX"},
	} {
		for _, leg := range review14Legs(c.from, "Your trip", c.body) {
			if strings.Contains(leg, " "+c.wrong+"-") {
				t.Errorf("a capital's name resolved to the other end's namesake: %s", leg)
			}
		}
	}
}

// ATTACK (HIGH, a real flight's times changed): flightFromParts takes the
// first two clocks of the number's lines as departure and arrival,
// "labels differ from airline to airline, the order of a flight's stops
// does not"; only check-in, bag drop, boarding and gate clocks are
// skipped. It computes each clock's departure or arrival label and never
// uses it. A flight's duration ("Duration: 01:30", "Flight time 1:30"),
// a connection's time, a service desk's hours ("Customer service: Mon-Fri
// 08:00-20:00"), "Please be at the airport by 05:30" or "Lounge access
// from 05:00" above "Depart: 07:40 / Arrive: 09:10" becomes the
// departure (01:30, 08:00, 05:30), and the real departure the arrival.
// SAFE: 07:40 - 09:10 (clocks on lines labelled departure and arrival win
// over unlabelled ones; a duration's, an office's hours' or an advice's
// clock is never a stop's).
func TestReview14PartsFirstClocksNotStops(t *testing.T) {
	for _, l := range []string{
		"Duration: 01:30\n",
		"Flight time 1:30\n",
		"Customer service: Mon-Fri 08:00-20:00\n",
		"Please be at the airport by 05:30\n",
		"Lounge access from 05:00\n",
	} {
		body := "Booking reference: ZKQW7P\n\nFlight T3 0405\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\n" + l + "Depart:\t07:40\nArrive:\t09:10\n"
		for _, leg := range review14Legs("Eastern Airways <bookings@easternairways.com>", "Your trip", body) {
			if !strings.Contains(leg, "2027-03-14T07:40:00Z 2027-03-14T09:10:00Z") {
				t.Errorf("with %q: %s", strings.TrimSpace(l), leg)
			}
		}
	}
}

// ATTACK (LOW, a real flight lost): partsFlights drops every number of
// three characters or fewer ("a gate's or a seat's three characters, B12"):
// the one-digit flagship numbers (EK 1 Dubai - London, BA 1, QF 1, AA 1,
// SQ 1, UA 1) are never read by their parts, while EK 29 in the same
// layout is.
// SAFE: EK 1 SOU -> ABZ as EK 29 (a gate or seat is told by its label or
// its letter-first shape, "B12", not by a designator-and-digit's length;
// a hit already needs an airline's designator).
func TestReview14PartsOneDigitFlightLost(t *testing.T) {
	for _, n := range []string{"EK 1", "BA1"} {
		got := review14Legs("Eastern Airways <bookings@easternairways.com>", "Your trip",
			"Booking reference: ZKQW7P\n\nFlight "+n+"\nSouthampton\nTo:\nAberdeen\nDate:\t14 Mar 27\nDepart:\t07:40\nArrive:\t09:10\n")
		if len(got) != 1 {
			t.Errorf("flight %s: legs %v (%d), want one as for a two-digit number", n, got, len(got))
		}
	}
}

// ATTACK (MEDIUM, a false flight time): partsFlights runs in any booking's
// mail the flight rules rank first. An airport transfer's confirmation
// names the arriving flight ("Arriving flight: LH 1234 from Frankfurt
// (FRA)", "Pick-up: Munich Airport (MUC)", "14 Mar 2027 10:30") and gives
// a flight LH 1234 FRA -> MUC *departing* at 10:30, the time it lands and
// the driver waits; under the transfer company's booking code. The agent
// tells the person their flight leaves Frankfurt at 10:30. Before
// 8ac95840 the mail gave no flight.
// SAFE: no flight (a number after "arriving flight"/"flight number" in a
// transfer's, parking's or car's booking is a reference to another
// booking, not a leg), or at most a leg with no departure time.
func TestReview14PartsTransferPickupIsDeparture(t *testing.T) {
	got := review14Legs("Welcome Pickups <bookings@welcomepickups.com>", "Your transfer is confirmed",
		"Your transfer is confirmed\nBooking reference: WPK7Q2\n\nArriving flight: LH 1234 from Frankfurt (FRA)\nPick-up: Munich Airport (MUC)\n14 Mar 2027 10:30\nDrop-off: Hotel Bayerischer Hof\nYour driver will wait 60 minutes\n")
	for _, leg := range got {
		if strings.Contains(leg, "LH 1234") && strings.Contains(leg, "T10:30:00+01:00") {
			t.Errorf("a transfer's pick-up time read as the flight's departure: %s", leg)
		}
	}
}

// ATTACK (HIGH, a real train's time moved by eight hours): placedZone
// (station.go, f34af580) gives any station no table places, written in
// Hangul or kana, Korea's or Japan's clock, "not the Date header's". The
// script is the reader's language, not the station's country: a Korean
// or Japanese agency's or Rail Europe's ticket for a Eurostar or an ICE
// ("파리 북역" Paris Nord, "フランクフルト中央駅" Frankfurt Hbf), sent with a
// European Date header, now leaves at 07:10 KST/JST (22:10 UTC the day
// before) instead of 07:10 CET: the agent tells the person the train
// left eight hours before it does. Before f34af580 it was 07:10 +01:00.
// SAFE: 07:10 +01:00 (a script names the country of a station only when
// nothing else does: the train's number or operator (EST, ICE), the
// other stop's placed zone, or a city the places tables name in that
// script abroad (0e49b711) vetoes it; or the Date header's zone stays).
func TestReview14StationScriptZoneMovesEuropeanTrain(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	for _, body := range []string{
		"예약이 확정되었습니다\n예약 번호: QZ7WKP\n\n기차 EST 9014\n출발 2027년 3월 14일 07:10 파리 북역\n도착 2027년 3월 14일 08:30 런던 세인트판크라스\n",
		"ご予約が確定しました\n予約番号: QZ7WKP\n\n列車 ICE 723\n出発 2027年3月14日 07:10 フランクフルト中央駅\n到着 2027年3月14日 11:30 ミュンヘン中央駅\n",
	} {
		for _, f := range mailFacts("Rail Europe <noreply@raileurope.com>", "Your booking", body, time.Date(2027, 1, 10, 9, 0, 0, 0, paris)) {
			if s := f.Segment; s != nil && s.Depart != nil {
				if _, off := s.Depart.Time.Zone(); off != 3600 {
					t.Errorf("%s %s departs %v, want 07:10 +01:00", f.Kind, s.Number, s.Depart.Time)
				}
			}
		}
	}
}
