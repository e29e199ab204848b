package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/mail"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"mailnode/extract"
	"mailnode/extract/pdfdoc"
)

// The public material no rule was tuned on (issue 46): the inputs of
// ../shared/corpus that no test, testdata copy or import of this project
// used before the rules were written. The travel import (ImportKItinerary)
// took KItinerary's vendor inputs and structured-data samples that hold a
// flight, train or hotel; the order mails are 18 of Mail and Packages'; the
// invoice PDFs are invoice2data's; extract/einvoice and extract/pdfdoc test
// on a part of the ZUGFeRD corpus. What is left, and can honestly be a
// mail, is this:
//
//   - KItinerary: vendor inputs that are mail text but hold no trip (events,
//     restaurants, places: distractors), the boarding-pass PDF of its
//     synthetic vendor (attached to a mail), structured-data samples without
//     a trip (distractors), every iCalendar file of calendarhandlerdata
//     (attached to a mail) and every JSON-LD input of jsonlddata (in the
//     HTML of a mail, as a sender writes it). Labels are KItinerary's
//     expected outputs (SchemaEntities), as for the travel import.
//   - Mail and Packages: the three USPS Informed Delivery digests the order
//     set left out, labelled by hand from what each says (as the 18 are):
//     one package arriving today in one, none in the others.
//   - invoice2data: its text invoice (Orlen) and the text invoices of
//     custom/, each the body of a mail; labels from the expected JSON
//     beside each (number when it holds a digit, amount and currency, due
//     date when given).
//   - ZUGFeRD: the Mustang project's invoices no test reads: its CII XML
//     outputs, attached to a mail as an XRechnung is sent, and its PDFs
//     with the invoice embedded, attached; labels from the CII XML itself
//     (document id, amount due and its currency, due date), read from the
//     PDF's embedded file by the PDF container reader, never by the
//     extractors.
//
// Each input is named by its path under the corpus; a hash of that path
// puts it in the headline part (HeadlinePath) or the development part, so
// that the split is fixed before any rule is written and needs no list.

// Untuned is one input of the material no rule was tuned on.
type Untuned struct {
	Path     string // under ../shared/corpus, e.g. "kitinerary/jsonlddata/graph.in.json"
	Mail     Mail
	Expected []Entity
}

// HeadlinePath says whether the input at path (under the corpus) belongs
// to the headline part: the first byte of the SHA-256 of the path is even.
func HeadlinePath(path string) bool {
	return sha256.Sum256([]byte(path))[0]%2 == 0
}

// ImportUntuned reads every untuned input of the corpus at dir (the
// checkout's ../shared/corpus) and turns it into a labelled mail, in the
// order of their paths.
func ImportUntuned(dir string) ([]Untuned, error) {
	var out []Untuned
	for _, f := range []func(string) ([]Untuned, error){untunedKItinerary, untunedInformedDelivery, untunedTextInvoices, untunedZUGFeRD} {
		us, err := f(dir)
		if err != nil {
			return nil, err
		}
		out = append(out, us...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// SplitUntuned parts the inputs into the headline part and the
// development part by HeadlinePath.
func SplitUntuned(us []Untuned) (headline, dev Public) {
	for _, u := range us {
		p := &dev
		if HeadlinePath(u.Path) {
			p = &headline
		}
		p.Mails = append(p.Mails, u.Mail)
		p.Expected = append(p.Expected, u.Expected...)
	}
	return headline, dev
}

func untunedName(path string) string {
	return strings.NewReplacer("/", "_", " ", "-", "+", "-").Replace(path)
}

func untunedKItinerary(corpus string) ([]Untuned, error) {
	dir := filepath.Join(corpus, "kitinerary")
	var out []Untuned
	add := func(path string, raw []byte, expected []byte) {
		rel, _ := filepath.Rel(corpus, path)
		name := untunedName(rel)
		out = append(out, Untuned{Path: rel, Mail: Mail{Name: name, Raw: raw}, Expected: SchemaEntities(name, expected)})
	}
	// Vendor inputs the travel import left out: mail text without a trip,
	// and the synthetic vendor's PDF.
	vendors, _ := filepath.Glob(filepath.Join(dir, "extractordata", "*"))
	sort.Strings(vendors)
	for _, v := range vendors {
		files, _ := filepath.Glob(filepath.Join(v, "*"))
		sort.Strings(files)
		for _, f := range files {
			base := filepath.Base(f)
			want, err := os.ReadFile(f + ".json")
			if err != nil || base == "context.eml" {
				continue
			}
			body, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			ctx, _ := os.ReadFile(filepath.Join(v, "context.eml"))
			switch {
			case strings.EqualFold(filepath.Ext(f), ".pdf"):
				add(f, attachedMail(ctx, "Your boarding pass is attached.", base, "application/pdf", body), want)
			case mailInput(f) && len(SchemaEntities("", want)) == 0 && !barcodePayload(body):
				raw, err := asMail(f, body, ctx)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", f, err)
				}
				add(f, raw, want)
			}
		}
	}
	// Inputs whose expected output sits beside them (the same name with
	// the suffix in changed to out), each made into a mail by asMail
	// from what mailFile returns: a name and a body.
	each := func(sub, in, out string, skip func(want []byte) bool, mailFile func(f string, body []byte) (string, []byte)) error {
		files, _ := filepath.Glob(filepath.Join(dir, sub, "*"+in))
		sort.Strings(files)
		for _, f := range files {
			want, err := os.ReadFile(strings.TrimSuffix(f, in) + out)
			if err != nil || skip(want) {
				continue // no expected output, or the travel import has it
			}
			body, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			name, content := mailFile(f, body)
			raw, err := asMail(name, content, nil)
			if err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
			add(f, raw, want)
		}
		return nil
	}
	asIs := func(f string, body []byte) (string, []byte) { return f, body }
	never := func([]byte) bool { return false }
	if err := each("structureddata", ".html", ".json", func(want []byte) bool { return len(SchemaEntities("", want)) > 0 }, asIs); err != nil {
		return nil, err
	}
	if err := each("calendarhandlerdata", ".ics", ".json", never, asIs); err != nil {
		return nil, err
	}
	// A JSON-LD input goes in a page's script element, as a vendor's mail
	// carries it.
	if err := each("jsonlddata", ".in.json", ".out.json", never, func(f string, body []byte) (string, []byte) {
		html := "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<script type=\"application/ld+json\">\n" +
			string(body) + "\n</script>\n</head><body><p>Thank you. The details are below.</p></body></html>\n"
		return strings.TrimSuffix(f, ".json") + ".html", []byte(html)
	}); err != nil {
		return nil, err
	}
	return out, nil
}

// attachedMail is a message whose text says note, with one attachment.
func attachedMail(context []byte, note, filename, ctype string, data []byte) []byte {
	var b bytes.Buffer
	from, date := "Reservations <reservations@example.com>", "Mon, 01 Jan 2024 09:00:00 +0000"
	if h, err := readHeader(context); err == nil {
		if v := h.Get("From"); v != "" {
			from = v
		}
		if v := h.Get("Date"); v != "" {
			date = v
		}
	}
	return attachment(&b, from, date, note, filename, ctype, data)
}

func attachment(b *bytes.Buffer, from, date, note, filename, ctype string, data []byte) []byte {
	const boundary = "=_mailnode_eval"
	fmt.Fprintf(b, "Date: %s\r\nFrom: %s\r\nTo: me@example.org\r\nMIME-Version: 1.0\r\n", date, from)
	fmt.Fprintf(b, "Content-Type: multipart/mixed; boundary=%q\r\n\r\n--%s\r\n", boundary, boundary)
	fmt.Fprintf(b, "Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n", note)
	fmt.Fprintf(b, "--%s\r\nContent-Type: %s\r\nContent-Disposition: attachment; filename=%q\r\nContent-Transfer-Encoding: base64\r\n\r\n", boundary, ctype, filename)
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc + "\r\n")
	fmt.Fprintf(b, "--%s--\r\n", boundary)
	return b.Bytes()
}

// informedDelivery are the hand labels of Mail and Packages' digests:
// what each says, read from the mail (the parcels under "Arriving Today";
// a scanned letter is no parcel).
var informedDelivery = map[string][]map[string]string{
	"informed_delivery.eml":                   {{"tracking": "92741234567890123456789000", "carrier": "USPS", "status": "out_for_delivery"}},
	"informed_delivery_missing_mailpiece.eml": nil,
	"informed_delivery_no_mail.eml":           nil,
}

func untunedInformedDelivery(corpus string) ([]Untuned, error) {
	var out []Untuned
	names := make([]string, 0, len(informedDelivery))
	for n := range informedDelivery {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		rel := filepath.Join("mail-and-packages", n)
		raw, err := os.ReadFile(filepath.Join(corpus, rel))
		if err != nil {
			return nil, err
		}
		u := Untuned{Path: rel, Mail: Mail{Name: untunedName(rel), Raw: raw}}
		for _, f := range informedDelivery[n] {
			u.Expected = append(u.Expected, Entity{Kind: extract.KindOrder, Key: f["tracking"], Mail: u.Mail.Name, Fields: f})
		}
		out = append(out, u)
	}
	return out, nil
}

// invoiceLabel is invoice2data's expected output, the fields scored.
type invoiceLabel struct {
	Number   string   `json:"invoice_number"`
	Amount   *float64 `json:"amount"`
	Currency string   `json:"currency"`
	Due      string   `json:"date_due"`
}

func (w invoiceLabel) fields() map[string]string {
	f := map[string]string{}
	if strings.ContainsAny(w.Number, "0123456789") { // Orlen's "F" is its template's, not a number
		f["number"] = strings.TrimPrefix(w.Number, "#")
	}
	if w.Amount != nil && w.Currency != "" {
		f["amount"] = fmt.Sprintf("%.2f %s", *w.Amount, w.Currency)
	}
	if w.Due != "" {
		f["due"] = w.Due
	}
	return f
}

func untunedTextInvoices(corpus string) ([]Untuned, error) {
	var out []Untuned
	var files []string
	for _, g := range []string{"invoice2data/compare/*.txt", "invoice2data/custom/*.txt"} {
		m, _ := filepath.Glob(filepath.Join(corpus, g))
		files = append(files, m...)
	}
	sort.Strings(files)
	for _, f := range files {
		rel, _ := filepath.Rel(corpus, f)
		b, err := os.ReadFile(strings.TrimSuffix(f, ".txt") + ".json")
		if err != nil {
			continue
		}
		var want []invoiceLabel
		if err := json.Unmarshal(b, &want); err != nil || len(want) == 0 {
			return nil, fmt.Errorf("labels of %s: %v", rel, err)
		}
		body, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		name := untunedName(rel)
		var raw bytes.Buffer
		fmt.Fprintf(&raw, "From: Billing <billing@vendor.example>\r\nTo: me@example.org\r\nSubject: Your invoice\r\n"+
			"Date: Mon, 01 Jan 2024 09:00:00 +0000\r\nMessage-ID: <%s@vendor.example>\r\nMIME-Version: 1.0\r\n"+
			"Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n", name)
		enc := base64.StdEncoding.EncodeToString(body)
		for len(enc) > 76 {
			raw.WriteString(enc[:76] + "\r\n")
			enc = enc[76:]
		}
		raw.WriteString(enc + "\r\n")
		u := Untuned{Path: rel, Mail: Mail{Name: name, Raw: raw.Bytes()}}
		if f := want[0].fields(); len(f) > 0 {
			u.Expected = []Entity{{Kind: extract.KindBill, Key: f["number"], Mail: name, Fields: f}}
		}
		out = append(out, u)
	}
	return out, nil
}

// zugferdUsed are the ZUGFeRD corpus files extract/einvoice and
// extract/pdfdoc test on (their testdata): not untuned. The XML-Rechnung
// PDFs embed the CII files einvoice tests on, so they are used too.
var zugferdUsed = map[string]bool{
	"MustangGnuaccountingBeispielRE-20140519_499.pdf": true,
	"MustangGnuaccountingBeispielRE-20201121_508.pdf": true,
	"testout-XR.xml":                true,
	"testout-ZF2PushCreditNote.xml": true,
}

func untunedZUGFeRD(corpus string) ([]Untuned, error) {
	var files []string
	for _, g := range []string{"zugferd-corpus/ZUGFeRDv1/correct/Mustangproject/*", "zugferd-corpus/ZUGFeRDv2/correct/Mustangproject/*"} {
		m, _ := filepath.Glob(filepath.Join(corpus, g))
		files = append(files, m...)
	}
	sort.Strings(files)
	var out []Untuned
	for _, f := range files {
		base := filepath.Base(f)
		if zugferdUsed[base] {
			continue
		}
		rel, _ := filepath.Rel(corpus, f)
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		cii, ctype := data, "application/xml"
		if strings.HasSuffix(base, ".pdf") {
			ctype, cii = "application/pdf", nil
			doc, err := pdfdoc.Open(data)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", rel, err)
			}
			files, _ := doc.Files()
			for _, e := range files {
				if strings.HasSuffix(strings.ToLower(e.Name), ".xml") {
					cii = e.Data
				}
			}
		}
		fields, err := ciiLabels(cii)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel, err)
		}
		name := untunedName(rel)
		var b bytes.Buffer
		raw := attachment(&b, "Billing <billing@vendor.example>", "Mon, 01 Jan 2024 09:00:00 +0000",
			"Hello, please find your invoice attached.", base, ctype, data)
		out = append(out, Untuned{Path: rel, Mail: Mail{Name: name, Raw: raw},
			Expected: []Entity{{Kind: extract.KindBill, Key: fields["number"], Mail: name, Fields: fields}}})
	}
	return out, nil
}

// ciiLabels reads a Cross Industry Invoice (ZUGFeRD 1 or 2, Factur-X,
// XRechnung CII) by its elements' local names alone: the document's id,
// the amount due and the invoice's currency, the due date.
func ciiLabels(b []byte) (map[string]string, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("no embedded invoice")
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var path []string
	f := map[string]string{}
	var currency, amount string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			path = append(path, t.Name.Local)
		case xml.EndElement:
			path = path[:len(path)-1]
		case xml.CharData:
			v := strings.TrimSpace(string(t))
			if v == "" || len(path) < 2 {
				continue
			}
			leaf, parent := path[len(path)-1], path[len(path)-2]
			switch {
			case leaf == "ID" && (parent == "ExchangedDocument" || parent == "HeaderExchangedDocument") && f["number"] == "":
				f["number"] = v
			case leaf == "InvoiceCurrencyCode" && currency == "":
				currency = v
			case leaf == "DuePayableAmount" && amount == "":
				amount = v
			case leaf == "DateTimeString" && parent == "DueDateDateTime" && f["due"] == "":
				if len(v) == 8 {
					v = v[:4] + "-" + v[4:6] + "-" + v[6:]
				}
				f["due"] = v
			}
		}
	}
	if a, err := strconv.ParseFloat(amount, 64); err == nil && currency != "" {
		f["amount"] = fmt.Sprintf("%.2f %s", a, currency)
	}
	if f["number"] == "" {
		return nil, fmt.Errorf("no document id")
	}
	return f, nil
}

// WriteWithNote stores the set in dir as Write does, with note as the
// labels' note.
func (p Public) WriteWithNote(dir, note string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	for _, f := range old {
		os.Remove(f)
	}
	for _, m := range p.Mails {
		if err := os.WriteFile(filepath.Join(dir, m.Name+".eml"), m.Raw, 0o644); err != nil {
			return err
		}
	}
	exp := p.Expected
	if exp == nil {
		exp = []Entity{}
	}
	b, err := json.MarshalIndent(publicLabels{Note: note, Expected: exp}, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "labels.json"), append(b, '\n'), 0o644)
}

// readHeader reads a vendor's context.eml (headers, perhaps no body).
func readHeader(context []byte) (mail.Header, error) {
	m, err := mail.ReadMessage(bytes.NewReader(append(bytes.TrimSpace(context), "\n\n"...)))
	if err != nil {
		return nil, err
	}
	return m.Header, nil
}
