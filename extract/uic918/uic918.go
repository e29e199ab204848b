// Package uic918 reads the barcode of European rail tickets: the UIC
// 918.3 container ("#UT01", "#UT02") that DB, ÖBB, SBB, DSB, ČD, ZSSK, MÁV,
// SŽ and others print as an Aztec code, and the records inside it, of
// which the ticket layout (U_TLAY) in the RCT2 standard states the trip:
// the printed ticket's fields at their line and column; DB's 0080BL
// record its route; and UIC 918.9's U_FLEX (package fcb) the journey in
// ASN.1.
//
// The container is a header (the issuer's RICS code, the signing key's
// id, a DSA signature of 50 or 64 bytes), the length of the body as four
// ASCII digits, and the body compressed with zlib: records, each an id of
// six characters, a version of two and its length (header included) of
// four. The signature is not checked: a mail reader has no issuer's key,
// and the ticket is read for what it says, as its printed copy would be.
//
// Payloads come from mail: every length is bounded by what is there, and
// the body is inflated within a cap.
package uic918

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
)

// MaxBody caps the inflated body: a ticket's records are a few KiB
// (an Aztec code holds at most about 3 KiB compressed).
const MaxBody = 64 << 10

// Ticket is a decoded UIC 918.3 container.
type Ticket struct {
	Version int    // 1 or 2 (the length of the signature)
	Issuer  string // RICS code of the issuer: "0080" is DB, "1181" ÖBB
	KeyID   string
	Records []Record
}

// Record is one record of the body.
type Record struct {
	ID      string // "U_HEAD", "U_TLAY", "0080BL"
	Version string // "01"
	Data    []byte // the record's content, after its 12-byte header
}

// IsTicket says whether b starts as a UIC 918.3 container does: a
// cheap gate before Parse.
func IsTicket(b []byte) bool {
	return len(b) >= 5 && string(b[:3]) == "#UT" && (b[3] == '0' && (b[4] == '1' || b[4] == '2'))
}

// Parse decodes a container: its header and its body's records.
func Parse(b []byte) (*Ticket, error) {
	if !IsTicket(b) {
		return nil, errors.New("uic918: not a UIC 918.3 container")
	}
	t := &Ticket{Version: int(b[4] - '0')}
	sig := 50
	if t.Version == 2 {
		sig = 64
	}
	head := 5 + 4 + 5 + sig
	if len(b) < head+4 {
		return nil, errors.New("uic918: shorter than its header")
	}
	t.Issuer, t.KeyID = string(b[5:9]), string(b[9:14])
	if !digits(b[5:9]) {
		return nil, fmt.Errorf("uic918: issuer %q", b[5:9])
	}
	n, ok := number(b[head : head+4])
	if !ok || n == 0 || head+4+n > len(b) {
		return nil, fmt.Errorf("uic918: body length %q", b[head:head+4])
	}
	body, err := inflate(b[head+4 : head+4+n])
	if err != nil {
		return nil, err
	}
	for len(body) > 0 {
		if len(body) < 12 {
			return nil, errors.New("uic918: a record shorter than its header")
		}
		l, ok := number(body[8:12])
		if !ok || l < 12 || l > len(body) {
			return nil, fmt.Errorf("uic918: record %q of length %q", body[:6], body[8:12])
		}
		t.Records = append(t.Records, Record{ID: string(body[:6]), Version: string(body[6:8]), Data: body[12:l]})
		body = body[l:]
	}
	if len(t.Records) == 0 {
		return nil, errors.New("uic918: no record")
	}
	return t, nil
}

// Record is the first record of the id, if any.
func (t *Ticket) Record(id string) (Record, bool) {
	for _, r := range t.Records {
		if r.ID == id {
			return r, true
		}
	}
	return Record{}, false
}

// Issued is the issue day U_HEAD states (its issuer's code, the ticket's
// key of 20 characters, then "ddmmyyyyhhmm"), if it states a valid one.
func (t *Ticket) Issued() (Date, bool) {
	r, ok := t.Record("U_HEAD")
	if !ok || len(r.Data) < 4+20+8 {
		return Date{}, false
	}
	b := r.Data[24:32]
	d, ok1 := number(b[0:2])
	m, ok2 := number(b[2:4])
	y, ok3 := number(b[4:8])
	if !ok1 || !ok2 || !ok3 || d < 1 || d > 31 || m < 1 || m > 12 || y < 1990 || y >= 2100 {
		return Date{}, false
	}
	return Date{Year: y, Month: m, Day: d}, true
}

func inflate(b []byte) ([]byte, error) {
	z, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("uic918: body: %w", err)
	}
	defer z.Close()
	out, err := io.ReadAll(io.LimitReader(z, MaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("uic918: body: %w", err)
	}
	if len(out) > MaxBody {
		return nil, errors.New("uic918: body larger than any ticket")
	}
	return out, nil
}

// number reads ASCII digits.
func number(b []byte) (int, bool) {
	if len(b) == 0 || !digits(b) {
		return 0, false
	}
	n := 0
	for _, c := range b {
		n = n*10 + int(c-'0')
	}
	return n, true
}

func digits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
