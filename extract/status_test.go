package extract

import (
	"strings"
	"testing"
)

// TestStatusIn: a parcel's state from its sentence in every language; a
// delivery today is out for delivery however the sentence is built, unless
// it is told as past ("was delivered today") or as a status line
// ("Delivered today at 11:42").
func TestStatusIn(t *testing.T) {
	for s, want := range map[string]string{
		"your parcel is due to be delivered today between 10 and 2": StatusOutForDelivery,
		// A delivered phrase inside a failed delivery's is the failure.
		"your parcel could not be delivered":                   StatusProblem,
		"votre colis n'a pas pu être livré":                    StatusProblem,
		"ihr paket konnte nicht zugestellt werden":             StatusProblem,
		"your parcel could not be delivered. it was delivered": StatusDelivered,
		// A building's package room, mailroom or locker holds a parcel
		// delivered; a policy for parcels left there is no return.
		"you have a delivery at the front desk.":                                                            StatusDelivered,
		"your package is in the mailroom. packages not collected within 7 days are returned to the sender.": StatusDelivered,
		"your package has been placed in a locker.":                                                         StatusDelivered,
		"if the parcel is not collected it will be returned.":                                               "",
		// The courier took the parcel: a delivered word inside a longer
		// phrase of shipping is the shipping's.
		"kargonuz kargo firması tarafından teslim alındı.": StatusShipped,
		"kargonuz alıcıya teslim edildi.":                  StatusDelivered,
		"a futár átvette a csomagot.":                      StatusShipped,
		"a csomagot átvette.":                              StatusDelivered,
		"coletul a fost ridicat de curier.":                StatusShipped,
		"lähetys on luovutettu kuljetukseen.":              StatusShipped,
		"lähetys on luovutettu.":                           StatusDelivered,
		"пратката е подигната од курир.":                   StatusShipped,
		// The order or the parcel as the subject of "was shipped" in the
		// inflected languages, its number between perhaps; a confirmation
		// sent (the order in the genitive) is no shipping.
		"twoje zamówienie nr 4471-2290 zostało wysłane.":                  StatusShipped,
		"zamówienie zostało przekazane kurierowi.":                        StatusShipped,
		"potwierdzenie zamówienia zostało wysłane na twój adres e-mail.":  StatusOrdered,
		"dziękujemy za zamówienie. potwierdzenie zostało wysłane sms-em.": "",
		"hasło zostało wysłane.":                                          "",
		"zamówienie zostanie wysłane w ciągu 2 dni.":                      "",
		"vaše objednávka č. 20931 byla expedována.":                       StatusShipped,
		"váš balík byl odeslán.":                                          StatusShipped,
		"vaša objednávka bola expedovaná.":                                StatusShipped,
		"vaša narudžba br. 55120 je otpremljena.":                         StatusShipped,
		"vaše naročilo je bilo odposlano.":                                StatusShipped,
		"ваша поруџбина је отпремљена.":                                   StatusShipped,
		"пакетът ви е изпратен.":                                          StatusShipped,
		"ваше замовлення відправлене.":                                    StatusShipped,
		"teie tellimus on välja saadetud.":                                StatusShipped,
		"tellimuse kinnitus on saadetud teie e-posti aadressile.":         StatusOrdered,
		"pakkumine on saadetud.":                                          "",
		// A will-word a few words before the participle, as German puts
		// it last: a delivery to come is a parcel on its way; a past
		// word between, or a sentence's end, stops the will-word.
		"die lieferung wird ihnen durch unseren partner zugestellt.": StatusShipped,
		"ihre sendung wird ihnen von unserem partner zugestellt.":    StatusShipped,
		"your parcel will then be delivered by our partner.":         StatusShipped,
		"das paket wird gerade gepackt. es wurde zugestellt.":        StatusDelivered,
		"die rechnung wird nachgereicht, ihr paket wurde zugestellt": StatusDelivered,
		// A parcel handed to the carrier, in German: shipped; a return
		// handed over stays a return.
		"das paket liegt beim versanddienstleister.":                   StatusShipped,
		"ihre bestellung wurde an den versanddienstleister übergeben.": StatusShipped,
		"ihr paket von thomann wurde an uns übergeben.":                StatusShipped,
		"ihre rücksendung wurde an uns übergeben.":                     StatusReturned,
		// A help line's or a link's problem is none.
		"thank you for your order. if you have any problems with your order, reply to this email.": StatusOrdered,
		"order id: mk4t8q2lz9\nprocreate pocket\nreport a problem\n£5.99":                          StatusOrdered,
		"your order is delayed. report a problem":                                                  StatusProblem,
		// A lost parcel's refund is money sent back, not the parcel:
		// a problem; a return's refund is a return still.
		"your parcel was lost in transit. we've issued a full refund.":           StatusProblem,
		"leider ist ihr paket verloren gegangen. die erstattung erfolgt heute.":  StatusProblem,
		"votre colis a été perdu. nous avons procédé au remboursement.":          StatusProblem,
		"je pakket is zoekgeraakt. de terugbetaling volgt binnen 2 werkdagen.":   StatusProblem,
		"your return arrived at our warehouse. we've issued your refund.":        StatusReturned,
		"the parcel was returned to sender after it went missing for two weeks.": StatusReturned,
		// A state in a clause about a time to come is not the order's.
		"thanks for your order. we'll email you again when your order has been dispatched.": StatusOrdered,
		"danke für ihre bestellung. sobald sie versandt wurde, erhalten sie eine e-mail.":   StatusOrdered,
		// Shipping after a verb of time to come is to come.
		"your order is confirmed and will be dispatched within 2 working days.":                     StatusOrdered,
		"votre commande a bien été enregistrée. vous recevrez un e-mail dès qu'elle sera expédiée.": StatusOrdered,
		"din ordre vil blive afsendt i morgen":                                                      StatusOrdered,
		"it'll be shipped tomorrow. your order":                                                     StatusOrdered,
		"good news: we're delivering your parcel today":                                             StatusOutForDelivery,
		"your parcel was delivered today at 11:42":                                                  StatusDelivered,
		"ihr paket wird heute zwischen 10 und 14 uhr zugestellt":                                    StatusOutForDelivery,
		"ihr paket wurde heute um 11:42 uhr zugestellt":                                             StatusDelivered,
		"votre colis vous sera livré aujourd'hui":                                                   StatusOutForDelivery,
		"votre colis a été livré aujourd'hui à 11h42":                                               StatusDelivered,
		"tu paquete se entregará hoy":                                                               StatusOutForDelivery,
		"hoy entregaremos tu paquete":                                                               StatusOutForDelivery,
		"tu paquete ha sido entregado hoy a las 11:42":                                              StatusDelivered,
		"il tuo pacco verrà consegnato oggi":                                                        StatusOutForDelivery,
		"il tuo pacco è stato consegnato oggi alle 11:42":                                           StatusDelivered,
		"je pakket wordt vandaag bezorgd":                                                           StatusOutForDelivery,
		"we bezorgen je pakket vandaag":                                                             StatusOutForDelivery,
		"je pakket is vandaag om 11:42 bezorgd":                                                     StatusDelivered,
		"a sua encomenda será entregue hoje":                                                        StatusOutForDelivery,
		"a sua encomenda foi entregue hoje às 11:42":                                                StatusDelivered,
		"ditt paket levereras idag mellan 17 och 21":                                                StatusOutForDelivery,
		"ditt paket har levererats idag kl. 11:42":                                                  StatusDelivered,
		"din pakke bliver leveret i dag":                                                            StatusOutForDelivery,
		"din pakke er leveret i dag kl. 11:42":                                                      StatusDelivered,
		"pakken din leveres i dag":                                                                  StatusOutForDelivery,
		"pakken din ble levert i dag kl. 11:42":                                                     StatusDelivered,
		"pakettisi toimitetaan tänään":                                                              StatusOutForDelivery,
		"pakettisi on toimitettu tänään klo 11.42":                                                  StatusDelivered,
		"kurier doręczy ją dziś":                                                                    StatusOutForDelivery,
		"twoja paczka została doręczona dziś o 11:42":                                               StatusDelivered,
		"vaši zásilku vám dnes doručíme":                                                            StatusOutForDelivery,
		"vaše zásilka byla dnes doručena":                                                           StatusDelivered,
		"your parcel is on its way and will arrive on 22 may":                                       StatusShipped,
		"ihre sendung ist unterwegs":                                                                StatusShipped,
		"la tua spedizione è in viaggio":                                                            StatusShipped,
		"przesyłka jest w drodze":                                                                   StatusShipped,
		"your parcel was delivered\ndelivered today at 11:42":                                       StatusDelivered,
		"delivered today at 11:42":                                                                  StatusDelivered,
		"votre colis sera livré demain, mercredi 16 juin":                                           StatusShipped,
		"ihr paket wird morgen zugestellt":                                                          StatusShipped,
		"din leverans levereras i kväll mellan 17:00 och 22:00":                                     StatusOutForDelivery,
		"zugestellt heute um 11:42":                                                                 StatusDelivered,
		// A delivery today on a line that says it failed is none.
		"ihre sendung konnte heute leider nicht zugestellt werden": StatusProblem,
		"kurier nie zastał cię dziś pod adresem doręczenia":        StatusProblem,
		"we konden je pakket vandaag niet bezorgen":                StatusProblem,
		"tu envío no ha podido ser entregado: ausente en reparto":  StatusProblem,
		"votre colis n'a pas pu être distribué ce jour":            StatusProblem,
		// A return to come, if nothing is done, is none yet.
		"your item is being held. pay the fee or the item will be returned to the sender.": StatusProblem,
		"your item is being returned to the sender":                                        StatusReturned,
		// A parcel announced by its shop, its label made: a parcel with a
		// number, as every tracking number is (shipped).
		"a shipping label has been created for your package":   StatusShipped,
		"pre-shipment info sent to usps, usps awaiting item":   StatusShipped,
		"ihr paket ist angekündigt":                            StatusShipped,
		"coolblue heeft je pakket bij ons aangemeld":           StatusShipped,
		"przesyłka przygotowana przez nadawcę":                 StatusShipped,
		"din försändelse är förhandsaviserad":                  StatusShipped,
		"lähetyksesi ennakkotiedot on vastaanotettu":           StatusShipped,
		"votre colis est en préparation chez l'expéditeur":     StatusShipped,
		"stav: obdrženy údaje k zásilce":                       StatusShipped,
		"your return label has been created. return by 10 may": StatusReturned,
		// Delayed, damaged: a problem, "in transit" inside "damaged in
		// transit" the failure's.
		"your package may arrive later than expected due to weather": StatusProblem,
		"your parcel was damaged in transit at our hub":              StatusProblem,
		"ihre sendung wurde beim transport beschädigt":               StatusProblem,
		"je pakket is beschadigd geraakt":                            StatusProblem,
		"ditt paket har tyvärr skadats under transporten":            StatusProblem,
		"przesyłka została uszkodzona w transporcie":                 StatusProblem,
		"tu envío ha llegado dañado":                                 StatusProblem,
		// Brazilian Portuguese, as its postal operator writes it.
		"o objeto lb120447784br foi postado":                     StatusShipped,
		"seu objeto está aguardando retirada na agência":         StatusDelivered,
		"não conseguimos entregar: destinatário ausente":         StatusProblem,
		"your order has shipped. if it arrives damaged, tell us": StatusShipped,
	} {
		if got := statusIn(s); got != want {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}

// TestJoinWrapped: a break between small letters, or after a comma, is a
// space; the length is kept.
func TestJoinWrapped(t *testing.T) {
	for in, want := range map[string]string{
		"could not\nbe delivered":  "could not be delivered",
		"vandaag\nbezorgd, tussen": "vandaag bezorgd, tussen",
		"Hallo,\nwir waren":        "Hallo, wir waren",
		"Status:\nDelivered":       "Status:\nDelivered",
		"delivered.\nthanks":       "delivered.\nthanks",
		"être\nlivré":              "être livré",
		"\n":                       "\n",
		"":                         "",
	} {
		if got := joinWrapped(in); got != want || len(got) != len(in) {
			t.Errorf("joinWrapped(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOrderStatusOf: the subject speaks first, but one that only says the
// parcel is on its way gives way to a body that says it comes today.
func TestOrderStatusOf(t *testing.T) {
	for _, c := range []struct{ subject, text, want string }{
		{"Din leverans från Lyko är på väg", "Din leverans är på väg och levereras i kväll.", StatusOutForDelivery},
		{"Your parcel is on its way", "It left our depot this morning.", StatusShipped},
		{"Your parcel was delivered", "It was out for delivery this morning.", StatusDelivered},
		{"Your order", "Your parcel has shipped.", StatusShipped},
		{"We missed you", "We attempted to deliver your parcel.\nIt's now waiting for you at the Post Office.", StatusDelivered},
		{"We missed you", "We attempted to deliver your parcel and will try again tomorrow.", StatusProblem},
		// Blank lines (flattened HTML's paragraphs) do not push a digest's
		// state out of the lines read.
		{"Your mail for Tuesday", strings.Repeat("Mail piece\n\n", 9) + "Packages\n\nExpected today\n", StatusOutForDelivery},
		// A plain-text part's wrapped sentence: the phrase across the
		// line break is read; lines that are a list are not joined.
		{"An update on your parcel", "Your parcel from Currys could not\nbe delivered today.", StatusProblem},
		{"Update over je pakket", "Je pakket van Bol wordt vandaag\nbezorgd, tussen 13:15 en 15:15 uur.", StatusOutForDelivery},
		{"Information", "Wir haben Sie leider nicht\nangetroffen.", StatusProblem},
		{"Your parcel", "Delivered\nToday at 11:42", StatusDelivered},
	} {
		if got := orderStatusOf(c.subject, c.text); got != c.want {
			t.Errorf("%q / %q: %q, want %q", c.subject, c.text, got, c.want)
		}
	}
}
