package extract_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"mailnode/extract"
)

// Classes of mail the outside sets foreign-29 found (issue 46,
// 2026-12-03), proved here with other senders and words than the mails
// that showed them.

// TestSettlingInLabels: a stay's days under the words Russian and
// Ukrainian hosts use for moving in and out ("Заселение:" /
// "Выселение:", "Дата заселення" / "Дата виселення"), not only arrival
// and departure, each day with its hours.
func TestSettlingInLabels(t *testing.T) {
	sent := time.Date(2027, 2, 25, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ name, from, subject, text, want string }{
		{"Russian", "Усадьба Берёзка <info@berezka.example.ru>", "Подтверждение бронирования",
			"ПОДТВЕРЖДЕНИЕ БРОНИРОВАНИЯ\nНомер бронирования: 41872\n\nВаши даты:\nЗаселение: 12.04.2027 14:00 – 22:00\nВыселение: 14.04.2027 09:00 – 12:00\n\nОбъект размещения: Домик у озера\nЧисло гостей: 2\n",
			"41872 Домик у озера 2027-04-12 2027-04-14"},
		{"Ukrainian", "Садиба Лелека <info@leleka.example.ua>", "Підтвердження бронювання",
			"Номер бронювання: 55120\nДата заселення: 03.05.2027\nДата виселення: 06.05.2027\nГотель Лелека\n",
			"55120 Готель Лелека 2027-05-03 2027-05-06"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range mailFacts(tt.from, tt.subject, tt.text, sent) {
				if s := f.Segment; s != nil && s.Type == "hotel" && s.CheckIn != nil && s.CheckOut != nil {
					got = append(got, fmt.Sprintf("%s %s %s %s", s.Reservation, s.Hotel, s.CheckIn.Format("2006-01-02"), s.CheckOut.Format("2006-01-02")))
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("stays %q, want [%s]", got, tt.want)
			}
		})
	}
}

// TestTrainNumberBesideItsName: a rail slip's label of the number and
// the name joined by a slash ("Train No. / Name : 12627 / KARNATAKA
// EXP") gives the number; its "Scheduled Departure :" and "Scheduled
// Arrival :" lines are the times of the stations its From and To
// labels name, no station of their own.
func TestTrainNumberBesideItsName(t *testing.T) {
	text := "PNR No. : 8123456790\nTrain No. / Name : 12627 / KARNATAKA EXP\nClass : AC 3 TIER      From : KSR BENGALURU (SBC)\n" +
		"Date of Journey : 11-Mar-2027    To : NEW DELHI (NDLS)\nScheduled Departure : 11-Mar-2027 19:20\nScheduled Arrival   : 13-Mar-2027 09:00\nTotal Fare Rs. 2905.00\n"
	var got []string
	for _, f := range mailFacts("bookings@railslip.example.in", "Booking Confirmation, Train: 12627, 11-Mar-2027, 3A, SBC - NDLS", text, time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)) {
		if s := f.Segment; s != nil && s.Type == "train" && s.From != nil && s.To != nil && s.Depart != nil {
			got = append(got, fmt.Sprintf("%s %s - %s %s %s", s.Number, s.From.Name, s.To.Name, s.Depart.Format("2006-01-02T15:04"), s.Reservation))
		}
	}
	want := "12627 KSR BENGALURU (SBC) - NEW DELHI (NDLS) 2027-03-11T19:20 8123456790"
	if len(got) != 1 || got[0] != want {
		t.Errorf("trains %q, want [%s]", got, want)
	}
}

// orderLineOf is the orders of facts as "merchant | number | status |
// tracking carrier", or "none".
func orderLineOf(facts []extract.Fact) string {
	var out []string
	for _, f := range facts {
		if o := f.Order; o != nil {
			s := o.Merchant + " | " + o.Number + " | " + o.Status + " |"
			for _, sh := range o.Shipments {
				s += " " + sh.Tracking + " " + sh.Carrier
			}
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, " ; ")
}

// TestForeign29Orders: orders of foreign-29 that gave less than they
// hold, each a class.
//   - A sentence's word for "following" between the tracking number's
//     label and its colon ("le numéro de suivi suivant : …").
//   - An item that came broken ("la lampe livrée cassée") is a problem,
//     not a delivery; so is one out of stock ("在庫切れ", "on
//     backorder").
//   - A display name of a role's words and an article ("Le service
//     client") names no shop.
//   - A closing bracket that ends a product's name before the order's
//     label ("【ドライ】注文番号…") is no bracket of the label's.
func TestForeign29Orders(t *testing.T) {
	sent := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ name, from, subject, text, want string }{
		{"following before the colon", "Maison Vallet <service@maisonvallet.example.fr>", "Votre commande n. 77120",
			"Bonjour,\n\nVotre commande n. 77120 a été expédiée ce jour.\nVous pouvez suivre votre colis grâce au numéro de suivi\nsuivant : 6A23509690329 sur le site de Colissimo.\n",
			"Maison Vallet | 77120 | shipped | 6A23509690329 Colissimo"},
		{"broken on arrival", "Le service client <service.client@atelier-luce.example.fr>", "Votre commande n° 30917",
			"Madame,\n\nNous avons bien reçu votre réclamation concernant le vase arrivé cassé. Un nouvel exemplaire vous sera expédié sous 48 heures.\n",
			" | 30917 | problem |"},
		{"a product's bracket before the label, out of stock", "株式会社みどり <info@midori-shop.example.jp>", "【ご注文商品】発送予定のお知らせ",
			"ご注文いただきました「電気ケトル【ミニ】注文番号120-5531」は、現在、在庫切れにつき、入荷待ちの状態です。\n",
			"株式会社みどり | 120-5531 | problem |"},
		{"on backorder", "Northfield Outfitters <orders@northfield.example.com>", "An update on your order #58213",
			"Hello,\n\nThe tent in your order #58213 is currently out of stock and on backorder. We will ship it as soon as it arrives.\n",
			"Northfield Outfitters | 58213 | problem |"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := orderLineOf(mailFacts(tt.from, tt.subject, tt.text, sent)); got != tt.want {
				t.Errorf("order %q, want %q", got, tt.want)
			}
		})
	}
}

// TestForeign29Bills: bills of foreign-29 that gave nothing or less,
// each a class.
//   - A charge told in a sentence ("We just charged your account.") and
//     a total names a paid bill, whatever the subject calls it.
//   - A service's billing statement bills the total its label gives in a
//     currency the label names, the sign and a footnote's star around the
//     figure ("Total in CAD: $102.73*").
//   - A printout's label in its right-hand column, ending its line, has
//     its value in its own column of the next line, not the left
//     column's account number.
//   - A ride's receipt numbered only by the code its subject ends with
//     after the bill's word ("Trip Invoice Receipt CRN…").
func TestForeign29Bills(t *testing.T) {
	sent := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ name, from, subject, text, want string }{
		{"a charge in a sentence", "Streamly <info@account.streamly.example>", "Your Streamly payment",
			"Hi Ana,\n\nWe just charged your account.\n\nPlan: Streamly Family\nTotal: $21.99 USD\nDate: March 1, 2027\n", " | 21.99 USD | paid | "},
		{"a billing statement's total in a named currency", "Cloudberry Hosting <billing@cloudberry.example.ca>", "Cloudberry Billing Statement Available [Account: 5512093]",
			"This e-mail confirms that your latest billing statement is available on the Cloudberry web site.\nTotal in CAD: $64.10*\n* Taxes included.\n", " | 64.10 CAD | due | "},
		{"a right-hand column's label", "Cloudberry Hosting <billing@cloudberry.example.ca>", "INV-CA-77120.pdf",
			"Account number :                                  Invoice Summary / Résumé de la facture\n" +
				"551209388                                         Invoice Number: / Numéro de facture :          INV-CA-77120\n" +
				"                                                  Invoice Date: / Date de la facture             2027/03/01\n" +
				"                                                  TOTAL AMOUNT / MONTANT TOTAL                    CAD 64.10\n" +
				"You have selected CAD as your preferred payment currency.\nPayment due by 2027/03/31\n", "INV-CA-77120 | 64.10 CAD | due | 2027-03-31"},
		{"a code after the receipt's word in the subject", "receipts@rideon.example.in", "Trip Invoice Receipt CRN51009284",
			"Thanks for riding with RideOn. Total cost of ride CRN51009284 was Rs. 312.00, automatically debited on 01-Mar-2027 via UPI.\n",
			"CRN51009284 | 312.00 INR | paid | "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := oneBill(t, mailFacts(tt.from, tt.subject, tt.text, sent))
			if got := billLine(b); got != tt.want {
				t.Errorf("bill %q, want %q", got, tt.want)
			}
		})
	}
}

// TestShopNounBeforeName: a sender's name that opens with a word for a
// shop ("Magasin …", "Sklep …", "Boutique de …") is the shop's name
// without it when the rest is what the domain spells; a name whose word
// the domain spells too keeps it ("Shop Apotheke").
func TestShopNounBeforeName(t *testing.T) {
	body := "Bonjour,\n\nvotre commande a bien été expédiée.\n\nCommande n° 44120\nTotal : 59,90 EUR\n"
	for from, want := range map[string]string{
		"Magasin Jardinor <service@jardinor.fr>":           "Jardinor",
		"Boutique de Céramix <commandes@ceramix.fr>":       "Céramix",
		"Sklep Ogrodnik <sklep@ogrodnik.pl>":               "Ogrodnik",
		"Shop Apotheke <service@shop-apotheke.com>":        "Shop Apotheke",
		"Magasin Jardinor Lyon <service@jardinor-lyon.fr>": "Jardinor Lyon",
		"Magasin Central <service@jardinor.fr>":            "Magasin Central",
		// German and Swiss German (foreign-29o's "Lädeli der SSBL").
		"Lädeli der Sonnenhof <laedeli@sonnenhof.ch>":      "Sonnenhof",
		"Laden der Imkerei Moser <laden@imkerei-moser.de>": "Imkerei Moser",
	} {
		if got := orderMerchant(from, "Votre commande 44120 a été expédiée", body); got != want {
			t.Errorf("%s: merchant %q, want %q", from, got, want)
		}
	}
}
