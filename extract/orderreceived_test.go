package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestOrderReceivedIsNotDelivered: "your order has been received" (by the shop) in Ukrainian,
// Bulgarian and Greek is read as status.delivered; merged with the shop's later "shipped" mail
// the order stays delivered (status only moves forward), so order_status says a parcel that is
// on its way was delivered.
func TestOrderReceivedIsNotDelivered(t *testing.T) {
	for _, tt := range []struct{ lang, subj1, text1, subj2, text2 string }{
		{"uk", "Замовлення отримано", "Добрий день!\n\nВаше замовлення отримано та передано в обробку.\nНомер замовлення: 483920\nРазом до сплати: 12 999 грн\n",
			"Замовлення відправлено", "Ваше замовлення відправлено.\nНомер замовлення: 483920\n"},
		{"bg", "Поръчката ви е получена", "Здравейте,\n\nПоръчката ви е получена и се обработва.\nНомер на поръчка: 483920\nОбщо: 649,00 лв.\n",
			"Поръчката ви е изпратена", "Поръчката ви е изпратена.\nНомер на поръчка: 483920\n"},
		{"el", "Η παραγγελία σας παραλήφθηκε", "Γεια σας,\n\nΗ παραγγελία σας παραλήφθηκε και βρίσκεται σε επεξεργασία.\nΑριθμός παραγγελίας: 483920\nΣύνολο: 329,00 €\n",
			"Η παραγγελία σας απεστάλη", "Η παραγγελία σας απεστάλη.\nΑριθμός παραγγελίας: 483920\n"},
	} {
		var recs []extract.Record
		for i, mt := range [][2]string{{tt.subj1, tt.text1}, {tt.subj2, tt.text2}} {
			m := &mime.Message{From: []mime.Address{{Name: "Shop", Address: "noreply@shop.example"}}, Subject: mt[0], Text: mt[1],
				Date: time.Date(2027, 6, 1+i, 8, 0, 0, 0, time.UTC)}
			res := extract.Extract(m, msgauth.Verdict{Authenticated: true, Domain: "shop.example"})
			for _, f := range res.Facts {
				if i == 0 && f.Order != nil {
					t.Logf("%s: first mail (order received) read as status %q", tt.lang, f.Order.Status)
				}
				recs = append(recs, extract.Record{Fact: f, Message: int64(i + 1), Date: m.Date, Authenticated: true, Sender: "shop.example"})
			}
		}
		for _, o := range extract.Merge(recs).Orders {
			if o.Status == extract.StatusDelivered {
				t.Errorf("%s: order %s merged as delivered after 'received' + 'shipped' mails", tt.lang, o.Number)
			}
		}
	}
}
