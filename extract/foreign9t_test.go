package extract_test

import (
	"testing"
	"time"
)

// Classes found by the outside set foreign-9 (issue 46, xf9t,
// 2026-11-30), each proved here in other words and other brands than the
// mails that showed them: a return trip printed as two blocks under their
// directions' headings, a rail service sold by a reseller whose mail has
// no word of trains, and a reseller's card flattened without separators.
// All but the distractors gave one leg or none before.

// TestDirectionBlocksAndResellers: every leg of each mail, in order.
func TestDirectionBlocksAndResellers(t *testing.T) {
	type leg struct{ number, from, to, depart, arrive, ref string }
	for _, c := range []struct {
		name, from, body string
		date             time.Time
		want             []leg
	}{
		{"it: andata and ritorno, a booking code each", "Italo <noreply@italo.example.it>",
			"Ciao Chiara,\n\nVIAGGIO DI ANDATA\nCodice PNR: K8H2QP\nItalo 8917\nNapoli Centrale → Milano Centrale\nPartenza: 07/11/2026 ore 08:15\nArrivo: 12:55\n\n" +
				"VIAGGIO DI RITORNO\nCodice PNR: M4TZ7W\nItalo 9942\nMilano Centrale → Napoli Centrale\nPartenza: 09/11/2026 ore 17:35\nArrivo: 22:20\n\nImporto pagato: 118,80 €\n",
			time.Date(2026, 10, 13, 17, 42, 0, 0, time.UTC),
			[]leg{{"8917", "Napoli Centrale", "Milano Centrale", "2026-11-07 08:15", "2026-11-07 12:55", "K8H2QP"},
				{"9942", "Milano Centrale", "Napoli Centrale", "2026-11-09 17:35", "2026-11-09 22:20", "M4TZ7W"}}},
		{"fr: aller and retour", "SNCF Connect <confirmation@sncf-connect.example.fr>",
			"Référence de dossier : QXBT4L\n\nALLER\nTGV INOUI 6111\nParis Gare de Lyon → Marseille Saint-Charles\nDépart : vendredi 12 juin 2026 à 07h37\nArrivée : 10h54\n\n" +
				"RETOUR\nTGV INOUI 6192\nMarseille Saint-Charles → Paris Gare de Lyon\nDépart : dimanche 14 juin 2026 à 18h04\nArrivée : 21h23\n",
			time.Date(2026, 5, 22, 8, 3, 0, 0, time.UTC),
			[]leg{{"TGV INOUI 6111", "Paris Gare de Lyon", "Marseille Saint-Charles", "2026-06-12 07:37", "2026-06-12 10:54", "QXBT4L"},
				{"TGV INOUI 6192", "Marseille Saint-Charles", "Paris Gare de Lyon", "2026-06-14 18:04", "2026-06-14 21:23", "QXBT4L"}}},
		{"de: overnight legs to a bilingual station", "ÖBB Nightjet <tickets@nightjet.example.at>",
			"Buchungscode: 4471 2890 5561\n\nHinfahrt\nNJ 425\nWien Hbf → Bruxelles-Midi / Brussel-Zuid\nAbfahrt: Fr, 16.10.2026 20:38\nAnkunft: 10:55\n\n" +
				"Rückfahrt\nNJ 424\nBruxelles-Midi / Brussel-Zuid → Wien Hbf\nAbfahrt: So, 18.10.2026 19:04\nAnkunft: 09:57\n",
			time.Date(2026, 9, 7, 6, 30, 0, 0, time.UTC),
			[]leg{{"NJ 425", "Wien Hbf", "Bruxelles-Midi / Brussel-Zuid", "2026-10-16 20:38", "2026-10-17 10:55", "4471 2890 5561"},
				{"NJ 424", "Bruxelles-Midi / Brussel-Zuid", "Wien Hbf", "2026-10-18 19:04", "2026-10-19 09:57", "4471 2890 5561"}}},
		{"en: a reseller's Frecciarossa, no word of trains", "Omio <booking@omio.example.com>",
			"Hi Hannah,\n\nYour booking is confirmed.\nBooking number: OM-59120447\n\nOutbound\nFrecciarossa 9521\nFirenze Santa Maria Novella → Roma Termini\nDeparture: Thursday 22 October 2026, 10:40\nArrival: 12:15\n\n" +
				"Return\nFrecciarossa 9558\nRoma Termini → Firenze Santa Maria Novella\nDeparture: Saturday 24 October 2026, 17:20\nArrival: 18:56\n\nTotal paid: €71.80\n",
			time.Date(2026, 9, 20, 8, 12, 0, 0, time.UTC),
			[]leg{{"Frecciarossa 9521", "Firenze Santa Maria Novella", "Roma Termini", "2026-10-22 10:40", "2026-10-22 12:15", "OM-59120447"},
				{"Frecciarossa 9558", "Roma Termini", "Firenze Santa Maria Novella", "2026-10-24 17:20", "2026-10-24 18:56", "OM-59120447"}}},
		{"es: a reseller's Iryo, stacked stops", "Billetes Ya <confirmacion@billetesya.example.es>",
			"Sergio, tu compra se ha completado.\nCódigo de reserva: K7QWTD\n\nViaje de ida\nsábado, 07 nov 2026\n09:10 Valencia Joaquín Sorolla\n1h 52m\nIryo 06221 en clase Inicial\n11:02 Madrid Puerta de Atocha\n\n" +
				"Viaje de vuelta\ndomingo, 08 nov 2026\n19:25 Madrid Puerta de Atocha\n1h 54m\nIryo 06290 en clase Inicial\n21:19 Valencia Joaquín Sorolla\n\nTotal: 57,80 €\n",
			time.Date(2026, 10, 15, 10, 20, 0, 0, time.UTC),
			[]leg{{"Iryo 06221", "Valencia Joaquín Sorolla", "Madrid Puerta de Atocha", "2026-11-07 09:10", "2026-11-07 11:02", "K7QWTD"},
				{"Iryo 06290", "Madrid Puerta de Atocha", "Valencia Joaquín Sorolla", "2026-11-08 19:25", "2026-11-08 21:19", "K7QWTD"}}},
		{"it: a reseller's card flattened without separators", "TreniGo <conferme@trenigo.example.it>",
			"Giulia, il tuo acquisto è completato!Hai acquistato il viaggio da Roma Termini a Napoli Centrale\nDati della prenotazioneCodice di prenotazione: TG58KQ\n" +
				"Andata\nsabato, 14 nov 202609:20 Roma Termini\n1h 10m\nFrecciarossa - 9531 in Standard\n10:30Napoli Centrale\n" +
				"Ritorno\ndomenica, 15 nov 202618:40 Napoli Centrale\n1h 13m\nFrecciarossa - 9568 in Standard\n19:53Roma Termini\n1 x Adulto\nTotale: 79,80 €\n",
			time.Date(2026, 10, 30, 16, 48, 0, 0, time.UTC),
			[]leg{{"Frecciarossa 9531", "Roma Termini", "Napoli Centrale", "2026-11-14 09:20", "2026-11-14 10:30", "TG58KQ"},
				{"Frecciarossa 9568", "Napoli Centrale", "Roma Termini", "2026-11-15 18:40", "2026-11-15 19:53", "TG58KQ"}}},
		{"es: a reseller's price alert is no booking", "Billetes Ya <alertas@billetesya.example.es>",
			"Sergio, ¡el precio ha bajado!\n\nTu alerta de precio: Madrid - Barcelona\n\nViaje de ida\nviernes, 20 nov 2026\n07:30 Madrid Puerta de Atocha\n2h 30m\nAVE 03061 en clase Estándar\n10:00 Barcelona Sants\ndesde 19 €\n\n" +
				"Viaje de vuelta\ndomingo, 22 nov 2026\n18:00 Barcelona Sants\n2h 30m\nAVE 03172 en clase Estándar\n20:30 Madrid Puerta de Atocha\ndesde 23 €\n\nReserva antes de que se agoten las plazas.\n",
			time.Date(2026, 11, 3, 7, 0, 0, 0, time.UTC), nil},
		{"it: a delay's compensation keeps no journey", "Trenord Rimborsi <rimborsi@trenord.example.it>",
			"Gentile Marco,\nla tua richiesta di indennizzo per ritardo è stata accolta.\n\nNumero pratica: 2026-558104\n\nViaggio oggetto della richiesta:\nTreno RV 2615\nMilano Centrale → Brescia\nPartenza: 02/11/2026 ore 17:25\nArrivo: 19:41 (ritardo 62 minuti)\n\nImporto dell'indennizzo: 6,20 €, accreditato come bonus sul tuo profilo.\n",
			time.Date(2026, 11, 18, 10, 5, 0, 0, time.UTC), nil},
		{"it: a claim's answer without a Date keeps none either", "Trenord Rimborsi <rimborsi@trenord.example.it>",
			"Gentile Marco,\nla tua richiesta di indennizzo per ritardo è stata accolta.\n\nNumero pratica: 2026-558104\n\nTreno RV 2615\nMilano Centrale → Brescia\nPartenza: 02/11/2026 ore 17:25\nArrivo: 19:41\n",
			time.Time{}, nil},
		{"en: a delay alert that tells how to claim keeps its journey", "Pennine Rail <alerts@penninerail.example.co.uk>",
			"Booking reference: KWTRPZ\n\nYour journey on Thursday 18 March 2027:\n\nYork 09:05 → London Kings Cross 11:02\n\nThis service is expected to run about 10 minutes late.\nClaim Delay Repay for delays of 15 minutes or more.\n",
			time.Date(2027, 3, 18, 6, 40, 0, 0, time.UTC),
			[]leg{{"", "York", "London Kings Cross", "2027-03-18 09:05", "2027-03-18 11:02", "KWTRPZ"}}},
	} {
		facts := mailFacts(c.from, "Conferma", c.body, c.date)
		if len(facts) != len(c.want) {
			t.Errorf("%s: got %d facts, want %d: %+v", c.name, len(facts), len(c.want), facts)
			continue
		}
		for i, w := range c.want {
			s := facts[i].Segment
			if facts[i].Kind != "train" || s == nil || s.From == nil || s.To == nil || s.Depart == nil || s.Arrive == nil {
				t.Errorf("%s: fact %d: %+v", c.name, i, facts[i])
				continue
			}
			loc := s.Depart.Location()
			got := leg{s.Number, s.From.Name, s.To.Name, s.Depart.Format("2006-01-02 15:04"), s.Arrive.In(loc).Format("2006-01-02 15:04"), s.Reservation}
			if got != w {
				t.Errorf("%s: leg %d = %+v, want %+v", c.name, i, got, w)
			}
		}
	}
}
