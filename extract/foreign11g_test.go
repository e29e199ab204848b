package extract_test

import (
	"testing"
	"time"
)

// Tickets printed as documents, the forms foreign-11 showed (issue 46,
// xf11g, 2026-11-30), each proved in other brands and languages than the
// mails that showed them: stops under labels of their own and the
// departure as a day and its clock on the day's labelled line ("Data:
// 11/09/2022 Horário: 01:05", "Date: 2027-03-14 07:30"), in a ticket that
// names a seat; a document's two columns run together on one line, each
// label after a single space ("Origem: SALVADOR - BA Destino: …"); a
// stop's state after a dash ("SALVADOR - BA" is one stop); a route after
// its label with a word for "to" ("Journey: Leeds to Scarborough") over
// "Date: …, departs 09:12, seat 31". Every mail but the distractors gave
// no fact before.

// TestTicketDocumentLegs: the leg each mail gives, or none.
func TestTicketDocumentLegs(t *testing.T) {
	type leg struct{ kind, from, to, depart, ref string }
	for _, c := range []struct {
		name, from, subject, body string
		date                      time.Time
		want                      []leg
	}{
		{"pt: BP-e, two columns run together, no sender, no date", "", "DOCUMENTO AUXILIAR DO BILHETE DE PASSAGEM ELETRÔNICO",
			"VIAÇÃO LITORAL SUL LTDA VIAÇÃO LITORAL SUL LTDA\nVia do Passageiro Via do Motorista\nPassageiro: Ana Souza Passageiro: Ana Souza\n" +
				"Viação: VIAÇÃO LITORAL SUL LTDA Classe: EXECUTIVO\nClasse: EXECUTIVO Origem: FLORIANOPOLIS - SC\nOrigem: FLORIANOPOLIS - SC Destino: PORTO ALEGRE - RS\n" +
				"Destino: PORTO ALEGRE - RS Plataforma: 3\nPlataforma: 3 Data: 2027-08-02 21:30:00\nData: 2027-08-02 21:30:00 Poltrona: 17\nPoltrona: 17\n" +
				"Valor total R$ 154.20\nBP-e n°: 558120 Série: 4\n",
			time.Time{},
			[]leg{{"bus", "FLORIANOPOLIS - SC", "PORTO ALEGRE - RS", "2027-08-02 21:30 -03:00", ""}}},
		{"pt: one column, Data and Horário on one line, a seat and no code", "Expresso Planalto <bilhetes@planalto.example.com.br>", "Seu bilhete",
			"Olá Pedro,\n\nSeu bilhete de ônibus:\nOrigem: Campinas\nDestino: Ribeirão Preto\nData: 11/10/2027 Horário: 07:20\nPoltrona: 04\n\nBoa viagem!\n",
			time.Date(2027, 9, 30, 12, 0, 0, 0, time.FixedZone("", -3*3600)),
			[]leg{{"bus", "Campinas", "Ribeirão Preto", "2027-10-11 07:20 -03:00", ""}}},
		{"es: Origen and Destino on one line, Fecha and Hora on the next", "Transportes Sierra Alta <boletos@sierraalta.example.mx>", "Tu boleto de autobús",
			"Folio: SA-77120\nOrigen: Monterrey Destino: Saltillo\nFecha: 03/09/2027 Hora: 18:05\nAsiento: 11\n",
			time.Date(2027, 8, 20, 12, 0, 0, 0, time.FixedZone("", -6*3600)),
			[]leg{{"bus", "Monterrey", "Saltillo", "2027-09-03 18:05 -06:00", "SA-77120"}}},
		{"en: a printout's fields on one line", "", "Your bus ticket - PRT5512093",
			"PARVATHI TRAVELS - E-TICKET\nOrigin: Madurai Destination: Chennai Date: 02-Oct-2027 22:10 Seat No: 7 Ticket No: PRT5512093\nFare: Rs. 850.00\n",
			time.Time{},
			[]leg{{"bus", "Madurai", "Chennai", "2027-10-02 22:10 +05:30", "PRT5512093"}}},
		{"tr: Kalkış Yeri, Varış Yeri, Tarih and Saat", "Ege Hattı Turizm <bilet@egehatti.example.com.tr>", "Otobüs biletiniz",
			"Kalkış Yeri: Bursa Otogarı\nVarış Yeri: Eskişehir Otogarı\nTarih: 19.07.2027 Saat: 08:45\nKoltuk No: 22\nBilet No: EGH-88120\n",
			time.Date(2027, 7, 1, 12, 0, 0, 0, time.FixedZone("", 3*3600)),
			[]leg{{"bus", "Bursa Otogarı", "Eskişehir Otogarı", "2027-07-19 08:45 +03:00", "EGH-88120"}}},
		{"en: Journey A to B over Date, departs, seat", "Fenland Trains <tickets@fenlandtrains.example.co.uk>", "Your e-ticket",
			"Your e-ticket is ready.\n\nJourney: Cambridge to Norwich\nDate: Friday 2027-06-11, departs 07:48, coach A, seat 12\n",
			time.Date(2027, 6, 1, 12, 0, 0, 0, time.UTC),
			[]leg{{"train", "Cambridge", "Norwich", "2027-06-11 07:48 +01:00", ""}}},
		// Distractors.
		{"pt: a timetable's new time names no seat", "Expresso Planalto <avisos@planalto.example.com.br>", "Novo horário",
			"Novo horário a partir de outubro:\nOrigem: Campinas\nDestino: Ribeirão Preto\nData: 11/10/2027 Horário: 07:20\n",
			time.Date(2027, 9, 30, 12, 0, 0, 0, time.FixedZone("", -3*3600)), nil},
		{"en: a forward's header block is no ticket", "Sam Hewitt <sam@example.co.uk>", "Fwd: seats",
			"Seat 12 is mine.\n\n---------- Forwarded message ---------\nFrom: Leeds\nTo: York\nDate: Monday 2027-05-17 07:40\nSubject: seats\n\nSeat 12 for the meeting.\n",
			time.Date(2027, 5, 3, 12, 0, 0, 0, time.UTC), nil},
		{"en: days after a route's label are no stops", "Fenland Trains <news@fenlandtrains.example.co.uk>", "Season tickets",
			"Trip: Monday to Friday\nDate: 2027-06-14 07:48\nSeat 12 reserved for season ticket holders.\n",
			time.Date(2027, 6, 1, 12, 0, 0, 0, time.UTC), nil},
		{"en: a day before the mail's is the booking's, no departure", "Fenland Trains <tickets@fenlandtrains.example.co.uk>", "Your receipt",
			"Journey: Cambridge to Norwich\nDate: 2027-05-28 16:02, seat 12\n",
			time.Date(2027, 6, 1, 12, 0, 0, 0, time.UTC), nil},
	} {
		facts := mailFacts(c.from, c.subject, c.body, c.date)
		if len(facts) != len(c.want) {
			t.Errorf("%s: got %d facts, want %d: %+v", c.name, len(facts), len(c.want), facts)
			continue
		}
		for i, w := range c.want {
			s := facts[i].Segment
			if s == nil || s.From == nil || s.To == nil || s.Depart == nil {
				t.Errorf("%s: fact %d: %+v", c.name, i, facts[i])
				continue
			}
			got := leg{facts[i].Kind, s.From.Name, s.To.Name, s.Depart.Format("2006-01-02 15:04 -07:00"), s.Reservation}
			if got != w {
				t.Errorf("%s: leg %d = %+v, want %+v", c.name, i, got, w)
			}
		}
	}
}
