package fcb

import (
	"errors"
	"strings"
)

// UIC's barcode header (DOSIPAS; ASN.1 modules uicBarcodeHeader_v1.0.0
// and v2.0.1, Apache-2.0): a barcode of its own, not a UIC 918.3
// container, whose format is "U1" or "U2" and whose level 1 data hold a
// sequence of records, each a data format and its octets. "FCB1",
// "FCB2" and "FCB3" are UicRailTicketData of major versions 1, 2 and 3
// (1.3, 2.0 and 3.0 here); the signatures, keys, dynamic content and a
// railway's own records are skipped. Version 2 adds the barcode's end of
// validity; neither module has an extension marker.
var (
	header1 = barcodeHeader(false)
	header2 = barcodeHeader(true)
)

func barcodeHeader(v2 bool) *typ {
	data := seqType(false, req("dataFormat", tIA5), req("data", tOctets))
	oid := tOctets // OBJECT IDENTIFIER: a length and its contents octets (X.691 24)
	var validity []field
	if v2 {
		validity = []field{
			opt("endOfValidityYear", integer(2016, 2269)),
			opt("endOfValidityDay", integer(1, 366)),
			opt("endOfValidityTime", integer(0, 1439)),
			opt("validityDuration", integer(1, 3600)),
		}
	}
	level1 := seqType(false,
		opt("securityProviderNum", integer(1, 32000)),
		opt("securityProviderIA5", tIA5),
		opt("keyId", integer(0, 99999)),
		req("dataSequence", seqOf(data)),
		opt("level1KeyAlg", oid),
		opt("level2KeyAlg", oid),
		opt("level1SigningAlg", oid),
		opt("level2SigningAlg", oid),
		opt("level2PublicKey", tOctets),
		validity)
	level2 := seqType(false,
		req("level1Data", level1),
		opt("level1Signature", tOctets),
		opt("level2Data", data))
	return seqType(false,
		req("format", tIA5),
		req("level2SignedData", level2),
		opt("level2Signature", tOctets))
}

// IsBarcodeHeader says whether b starts as a barcode header of format
// "U1" or "U2" does: a presence bit, the format's length (2) in eight
// bits, then "U" and a digit in seven bits each. A cheap gate before
// DecodeBarcode.
func IsBarcodeHeader(b []byte) bool {
	return len(b) >= 3 && b[0]&0x7F == 0x01 && b[1] == 0x55 && (b[2]>>1 == '1' || b[2]>>1 == '2')
}

// DecodeBarcode reads a barcode header and the journey of its first FCB
// record of a version read here; a header read short of its last octet,
// or one holding no such record, gives nothing.
func DecodeBarcode(b []byte) (*Ticket, error) {
	if !IsBarcodeHeader(b) {
		return nil, errors.New("fcb: no barcode header")
	}
	schema := header1
	if b[2]>>1 == '2' {
		schema = header2
	}
	r := &reader{b: b}
	v, err := r.sequence(schema, 0)
	if err != nil {
		return nil, err
	}
	if r.left() >= 8 {
		return nil, errors.New("fcb: data after the header")
	}
	if f, _ := v["format"].(string); f != "U1" && f != "U2" {
		return nil, errors.New("fcb: a header of another format")
	}
	l2, _ := v["level2SignedData"].(seq)
	l1, _ := l2["level1Data"].(seq)
	items, _ := l1["dataSequence"].([]any)
	for _, it := range items {
		d, _ := it.(seq)
		format, _ := d["dataFormat"].(string)
		data, _ := d["data"].([]byte)
		version, ok := map[string]string{"FCB1": "13", "FCB2": "02", "FCB3": "03"}[strings.TrimSpace(format)]
		if !ok {
			continue
		}
		return Decode(version, data)
	}
	return nil, ErrVersion
}
