package extract_test

import (
	"testing"
	"time"
)

// TestShippedAsObject: "we shipped your order" in the inflected
// languages, the verb in the first person plural and the order or the
// parcel its object, is a shipping; the same verb with another object
// (an e-mail, an invoice for the order) is none.
func TestShippedAsObject(t *testing.T) {
	for _, c := range []struct {
		from, subject, text string
		want                string // number and status
	}{
		{"Sklep Lampy <sklep@lampy.example.pl>", "Zamówienie nr LM-55120", "Dzień dobry,\nwysłaliśmy dziś Twoje zamówienie nr LM-55120.\nDziękujemy za zakupy!\n",
			"LM-55120 shipped"},
		{"Sklep Lampy <sklep@lampy.example.pl>", "Zamówienie nr LM-55121", "Dzień dobry,\nTwoje zamówienie nr LM-55121 wysłaliśmy dzisiaj.\n",
			"LM-55121 shipped"},
		{"Knihy Brno <info@knihy.example.cz>", "Objednávka č. 88412", "Dobrý den,\nodeslali jsme Vaši objednávku č. 88412.\n",
			"88412 shipped"},
		{"Obchod Kysuce <info@obchod.example.sk>", "Objednávka č. 20931", "Dobrý deň,\nodoslali sme vašu objednávku č. 20931.\n",
			"20931 shipped"},
		{"Trgovina Mura <info@trgovina.example.hr>", "Narudžba br. 55120", "Poštovani,\nposlali smo vašu narudžbu br. 55120.\n",
			"55120 shipped"},
		{"Продавница Дрина <info@prodavnica.example.rs>", "Поруџбина бр. 7712", "Поштовани,\nпослали смо вашу поруџбину бр. 7712.\n",
			"7712 shipped"},
		{"Магазин Полка <info@polka.example.ru>", "Заказ № 40918", "Здравствуйте!\nМы отправили ваш заказ № 40918.\n",
			"40918 shipped"},
		{"Крамниця Лан <info@lan.example.ua>", "Замовлення № 31207", "Вітаємо!\nМи відправили ваше замовлення № 31207.\n",
			"31207 shipped"},
		// The verb with another object: an order received still.
		{"Sklep Lampy <sklep@lampy.example.pl>", "Potwierdzenie zamówienia nr LM-55122", "Dzień dobry,\ndziękujemy za zamówienie nr LM-55122.\nWysłaliśmy Ci e-mail z potwierdzeniem zamówienia.\n",
			"LM-55122 ordered"},
		{"Trgovina Mura <info@trgovina.example.hr>", "Potvrda narudžbe br. 55121", "Poštovani,\nvaša narudžba br. 55121 je zaprimljena.\nPoslali smo vam račun za narudžbu.\n",
			"55121 ordered"},
		{"Knihy Brno <info@knihy.example.cz>", "Potvrzení objednávky č. 88413", "Dobrý den,\nděkujeme za objednávku č. 88413. Omlouváme se, neodeslali jsme objednávku včas.\n",
			"88413 ordered"},
	} {
		got := ""
		for _, f := range mailFacts(c.from, c.subject, c.text, time.Date(2027, 6, 8, 7, 0, 0, 0, time.UTC)) {
			if o := f.Order; o != nil {
				got = o.Number + " " + o.Status
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.subject, got, c.want)
		}
	}
}
