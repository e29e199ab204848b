// Package bcbp reads the IATA Bar Coded Boarding Pass (Resolution 792),
// the text inside the PDF417 or Aztec code of every airline boarding
// pass, whether it comes in an Apple Wallet pass, a PDF or an image.
//
// The text is fixed-width fields: a header with the passenger, then per
// flight leg a mandatory block of 37 characters followed by a
// variable-size block whose length the mandatory block states in hex. Only
// what the extractors use is kept: booking reference, airports, carrier,
// flight number, day of the year, seat, and the issue date that fixes the
// year.
package bcbp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Pass is a decoded boarding pass.
type Pass struct {
	Passenger string // "DESMARAIS/LUC"
	Legs      []Leg
	// IssueYear is the last digit of the year of issue, IssueDay its day
	// of the year; both 0 when the pass does not say.
	IssueYear, IssueDay int
	HasIssue            bool
}

// Leg is one flight of a pass.
type Leg struct {
	PNR      string // operating carrier's booking reference
	From, To string // IATA airport (or city) codes
	Carrier  string // operating carrier, "AC", "EZY"
	Flight   string // flight number without leading zeros, with any suffix letter: "834", "1234A"
	Day      int    // day of the year of the flight, 1-366
	Class    string // compartment code
	Seat     string // "3A", without leading zeros
	Sequence string // check-in sequence number
}

// maxLen bounds what Parse reads: a pass of four legs with every
// optional field is well under 1 KiB.
const maxLen = 4096

// Parse decodes a boarding pass's barcode text.
func Parse(s string) (*Pass, error) {
	if len(s) > maxLen {
		return nil, errors.New("bcbp: longer than any boarding pass")
	}
	// Some issuers stop after the last field they fill: the leg needs
	// only its day of flight, and the rest is read as blank.
	if len(s) < 23+24 || s[0] != 'M' {
		return nil, errors.New("bcbp: not a boarding pass (format code M and the mandatory fields)")
	}
	legs := int(s[1] - '0')
	if legs < 1 || legs > 4 {
		return nil, fmt.Errorf("bcbp: %q legs", s[1:2])
	}
	p := &Pass{Passenger: strings.TrimSpace(s[2:22])}
	pos := 23
	for i := 0; i < legs; i++ {
		if len(s) < pos+24 {
			return nil, fmt.Errorf("bcbp: leg %d cut short", i+1)
		}
		m := s[pos:min(len(s), pos+37)]
		if len(m) < 37 {
			m += strings.Repeat(" ", 37-len(m))
			if i == legs-1 {
				m = m[:35] + "00"
			}
		}
		day, err := strconv.Atoi(strings.TrimSpace(m[21:24]))
		if err != nil || day < 1 || day > 366 {
			return nil, fmt.Errorf("bcbp: leg %d: day of flight %q", i+1, m[21:24])
		}
		l := Leg{
			PNR:      strings.TrimSpace(m[0:7]),
			From:     strings.TrimSpace(m[7:10]),
			To:       strings.TrimSpace(m[10:13]),
			Carrier:  strings.TrimSpace(m[13:16]),
			Flight:   strings.TrimLeft(strings.TrimSpace(m[16:21]), "0"),
			Day:      day,
			Class:    strings.TrimSpace(m[24:25]),
			Seat:     strings.TrimLeft(strings.TrimSpace(m[25:29]), "0"),
			Sequence: strings.TrimLeft(strings.TrimSpace(m[29:34]), "0"),
		}
		if !letters(l.From) || !letters(l.To) || len(l.From) != 3 || len(l.To) != 3 || l.Carrier == "" || l.Flight == "" {
			return nil, fmt.Errorf("bcbp: leg %d: airports %q %q, carrier %q, flight %q", i+1, l.From, l.To, l.Carrier, l.Flight)
		}
		size, err := strconv.ParseUint(m[35:37], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("bcbp: leg %d: variable field size %q", i+1, m[35:37])
		}
		pos = min(pos+37, len(s))
		end := min(pos+int(size), len(s)) // some issuers state more than they print
		if i == 0 {
			p.readIssue(s[pos:end])
		}
		p.Legs = append(p.Legs, l)
		pos = end
	}
	return p, nil
}

// readIssue reads the date of issue from the first leg's conditional
// block: ">", version, a 2-digit hex size, passenger description, check-in
// source, issuance source, then the year digit and day of issue. Every
// version has it there (a version-1 pass of Eurowings's gives it); it is
// read only when the stated size of the block covers it, since what
// follows a shorter block is the leg's own fields ("130>5002A057…": a
// size of 00, then "2A" and an airline code).
func (p *Pass) readIssue(v string) {
	if len(v) < 11 || v[0] != '>' || v[1] < '1' || v[1] > '9' {
		return
	}
	size, err := strconv.ParseUint(v[2:4], 16, 8)
	if err != nil || size < 7 {
		return
	}
	if !digits(v[7:11]) {
		return
	}
	y := int(v[7] - '0')
	d, _ := strconv.Atoi(v[8:11])
	if d >= 1 && d <= 366 {
		p.IssueYear, p.IssueDay, p.HasIssue = y, d, true
	}
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// Date is the day of leg i's flight. The pass gives only the day of the
// year: the year comes from the issue date when the pass has one (the
// flight is on or after it), else it is the year that puts the day
// first on or after 30 days before ref, the day the pass was received: a
// pass is issued for a flight to come, and a mail that carries one comes
// before it or soon after (as a text's date without a year is read).
func (p *Pass) Date(i int, ref time.Time) time.Time {
	day := p.Legs[i].Day
	if p.HasIssue {
		// The year ending in the issue digit, at most a year after ref.
		y := ref.Year() + 1
		for y%10 != p.IssueYear {
			y--
		}
		issued := yearDay(y, p.IssueDay)
		for _, fy := range []int{y, y + 1} {
			if d := yearDay(fy, day); !d.Before(issued) {
				return d
			}
		}
	}
	from := time.Date(ref.Year(), ref.Month(), ref.Day()-30, 0, 0, 0, 0, time.UTC)
	for _, y := range []int{from.Year(), from.Year() + 1} {
		if d := yearDay(y, day); !d.Before(from) {
			return d
		}
	}
	return yearDay(from.Year()+1, day)
}

func yearDay(y, day int) time.Time {
	return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, day-1)
}

func letters(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
