package eval

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"mailnode/extract"
)

// LoadInvoices wraps each invoice PDF of dir (invoice2data's, with its
// expected values in <name>.json) in a mail of its own, as a vendor sends
// it: a short body that states nothing, the PDF attached. The labels are
// the bill's number and amount (with its currency) and, where
// invoice2data gives one, its due date.
func LoadInvoices(dir string) (Public, error) {
	var p Public
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	sort.Strings(files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".pdf")
		pdf, err := os.ReadFile(f)
		if err != nil {
			return p, err
		}
		b, err := os.ReadFile(strings.TrimSuffix(f, ".pdf") + ".json")
		if err != nil {
			return p, fmt.Errorf("labels of %s: %w", name, err)
		}
		var want []struct {
			Number   string   `json:"invoice_number"`
			Amount   *float64 `json:"amount"`
			Currency string   `json:"currency"`
			Due      string   `json:"date_due"`
		}
		if err := json.Unmarshal(b, &want); err != nil || len(want) == 0 {
			return p, fmt.Errorf("labels of %s: %v", name, err)
		}
		w := want[0]
		fields := map[string]string{"number": strings.TrimPrefix(w.Number, "#")}
		if w.Amount != nil {
			fields["amount"] = fmt.Sprintf("%.2f %s", *w.Amount, w.Currency)
		}
		if w.Due != "" {
			fields["due"] = w.Due
		}
		p.Expected = append(p.Expected, Entity{Kind: extract.KindBill, Key: w.Number, Mail: name, Fields: fields})
		raw := "From: Billing <billing@vendor.example>\r\nTo: me@example.org\r\nSubject: Your invoice\r\n" +
			"Date: Mon, 01 Jan 2024 09:00:00 +0000\r\nMessage-ID: <" + name + "@vendor.example>\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
			"Hello, please find your invoice attached.\r\n--b\r\nContent-Type: application/pdf\r\n" +
			"Content-Disposition: attachment; filename=\"" + name + ".pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
			base64.StdEncoding.EncodeToString(pdf) + "\r\n--b--\r\n"
		p.Mails = append(p.Mails, Mail{Name: name, Raw: []byte(raw)})
	}
	return p, nil
}
