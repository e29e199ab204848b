// Package pkpass reads Apple Wallet passes (.pkpass): a zip archive whose
// pass.json says what the pass is for (a boarding pass, an event ticket)
// in fields meant for display, semantic tags meant for machines, and the
// barcode the gate scans, which for a flight is the IATA boarding-pass
// text (package bcbp).
//
// Only pass.json is read; images, signatures and translations are left in
// the archive. The archive comes from mail, so every size is capped before
// anything is decompressed.
package pkpass

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Caps on what a pass may make the reader do.
const (
	MaxArchive  = 4 << 20   // bytes of the .pkpass itself
	maxPassJSON = 256 << 10 // bytes of pass.json, decompressed
	maxEntries  = 256       // files in the archive
)

// Pass is what the extractors read from pass.json.
type Pass struct {
	Organization string
	Description  string
	RelevantDate string // RFC 3339 without seconds, as passes write it
	// Style is the pass's kind: boardingPass, eventTicket, coupon,
	// storeCard or generic. TransitType is PKTransitTypeAir, …Train,
	// …Bus, …Boat or …Generic for a boarding pass.
	Style       string
	TransitType string
	Barcodes    []Barcode
	// Fields are the displayed fields of every group, by key; Keys are
	// their keys in the pass's order (header, primary, secondary,
	// auxiliary, back).
	Fields map[string]Field
	Keys   []string
	// Semantics are the machine-readable tags (iOS 12 and later):
	// eventName, venueName, eventStartDate, departureAirportCode, …
	Semantics map[string]any
}

// Barcode is one of the pass's barcodes.
type Barcode struct {
	Format  string // PKBarcodeFormatPDF417, …Aztec, …QR, …Code128
	Message string
}

// Field is a displayed field.
type Field struct {
	Label string
	Value string // numbers and dates as their JSON text
}

// Read reads a .pkpass archive.
func Read(archive []byte) (*Pass, error) {
	if len(archive) > MaxArchive {
		return nil, fmt.Errorf("pkpass: %d bytes, more than %d", len(archive), MaxArchive)
	}
	z, err := zip.NewReader(bytes.NewReader(archive), int64(len(archive)))
	if err != nil {
		return nil, fmt.Errorf("pkpass: %w", err)
	}
	if len(z.File) > maxEntries {
		return nil, fmt.Errorf("pkpass: %d files in the archive", len(z.File))
	}
	for _, f := range z.File {
		if f.Name != "pass.json" {
			continue
		}
		if f.UncompressedSize64 > maxPassJSON {
			return nil, fmt.Errorf("pkpass: pass.json of %d bytes", f.UncompressedSize64)
		}
		r, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("pkpass: open pass.json: %w", err)
		}
		// The stated size may lie: read one byte past the cap to know.
		b, err := io.ReadAll(io.LimitReader(r, maxPassJSON+1))
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("pkpass: read pass.json: %w", err)
		}
		if len(b) > maxPassJSON {
			return nil, errors.New("pkpass: pass.json larger than it says")
		}
		return Parse(b)
	}
	return nil, errors.New("pkpass: no pass.json")
}

type fieldJSON struct {
	Key   string          `json:"key"`
	Label string          `json:"label"`
	Value json.RawMessage `json:"value"`
}

type styleJSON struct {
	TransitType     string      `json:"transitType"`
	HeaderFields    []fieldJSON `json:"headerFields"`
	PrimaryFields   []fieldJSON `json:"primaryFields"`
	SecondaryFields []fieldJSON `json:"secondaryFields"`
	AuxiliaryFields []fieldJSON `json:"auxiliaryFields"`
	BackFields      []fieldJSON `json:"backFields"`
}

type barcodeJSON struct {
	Format  string `json:"format"`
	Message string `json:"message"`
}

// Parse reads pass.json.
func Parse(b []byte) (*Pass, error) {
	// Some issuers write a byte-order mark before the JSON.
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	var j struct {
		OrganizationName string         `json:"organizationName"`
		Description      string         `json:"description"`
		RelevantDate     string         `json:"relevantDate"`
		Barcode          *barcodeJSON   `json:"barcode"`
		Barcodes         []barcodeJSON  `json:"barcodes"`
		Semantics        map[string]any `json:"semantics"`
		BoardingPass     *styleJSON     `json:"boardingPass"`
		EventTicket      *styleJSON     `json:"eventTicket"`
		Coupon           *styleJSON     `json:"coupon"`
		StoreCard        *styleJSON     `json:"storeCard"`
		Generic          *styleJSON     `json:"generic"`
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("pkpass: pass.json: %w", err)
	}
	p := &Pass{Organization: j.OrganizationName, Description: j.Description, RelevantDate: j.RelevantDate,
		Semantics: j.Semantics, Fields: map[string]Field{}}
	for _, s := range []struct {
		name string
		st   *styleJSON
	}{{"boardingPass", j.BoardingPass}, {"eventTicket", j.EventTicket}, {"coupon", j.Coupon}, {"storeCard", j.StoreCard}, {"generic", j.Generic}} {
		if s.st == nil {
			continue
		}
		p.Style, p.TransitType = s.name, s.st.TransitType
		for _, group := range [][]fieldJSON{s.st.HeaderFields, s.st.PrimaryFields, s.st.SecondaryFields, s.st.AuxiliaryFields, s.st.BackFields} {
			for _, f := range group {
				if _, dup := p.Fields[f.Key]; !dup && f.Key != "" {
					p.Fields[f.Key] = Field{Label: f.Label, Value: jsonText(f.Value)}
					p.Keys = append(p.Keys, f.Key)
				}
			}
		}
		break
	}
	for _, bc := range j.Barcodes {
		p.Barcodes = append(p.Barcodes, Barcode(bc))
	}
	if j.Barcode != nil && len(p.Barcodes) == 0 {
		p.Barcodes = append(p.Barcodes, Barcode{Format: j.Barcode.Format, Message: j.Barcode.Message})
	}
	return p, nil
}

// jsonText is a field value as text: a string's content, else the JSON.
func jsonText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(string(v))
}

// Semantic returns a semantic tag as text ("" when absent or not text).
func (p *Pass) Semantic(key string) string {
	switch v := p.Semantics[key].(type) {
	case string:
		return strings.TrimSpace(v)
	case map[string]any: // eventStartDateInfo: {"date": …}
		if d, ok := v["date"].(string); ok {
			return d
		}
	}
	return ""
}
