package extract_test

import (
	"strings"
	"testing"
	"time"

	"mailnode/extract"
	"mailnode/mail/mime"
	"mailnode/mail/msgauth"
)

// TestTrainLayouts: legs on one line, stops that start with their marker
// and a train named under its stops, and a city's own name read as that
// city ("Roma" is Rome, not Roma in Queensland).
func TestTrainLayouts(t *testing.T) {
	for _, c := range []struct {
		name, from, text string
		want             []string
	}{
		{"one line", "noreply@sj.se", "Bokningsnummer: KTB8821X\nUtresa, torsdag 4 mars 2027\nTåg 421   Stockholm C 07:12 - Göteborg C 10:19\nVagn 3, plats 45\n",
			[]string{"421 Stockholm C → Göteborg C 2027-03-04T07:12+01:00 2027-03-04T10:19+01:00 KTB8821X"}},
		{"markers first, train below", "tickets@ns.example.nl", "Boekingsnummer: NSI4471920\nHeenreis zaterdag 20 maart 2027\nVertrek Amsterdam Centraal 08:16\nAankomst Brussel-Zuid 10:07\nTrein Eurocity Direct 9215\nRijtuig 2\n",
			[]string{"9215 Amsterdam Centraal → Brussel-Zuid 2027-03-20T08:16+01:00 2027-03-20T10:07+01:00 NSI4471920"}},
		{"own city name", "noreply@treni.example.it", "Codice PNR: QX7TRA\nAndata venerdì 19 marzo 2027\nFrecciarossa 9527\nPartenza Milano Centrale ore 10:15\nArrivo Roma Termini ore 13:25\nCarrozza 6\n",
			[]string{"Frecciarossa 9527 Milano Centrale → Roma Termini 2027-03-19T10:15+01:00 2027-03-19T13:25+01:00 QX7TRA"}},
		{"a table row under its header", "tickets@rail.example.co.uk", "Booking reference: 7HQ2MX4P\nTrain From Departs To Arrives\n\n1S09 London Kings Cross 16/07/2027 09:00 Edinburgh 16/07/2027 13:20\n",
			[]string{"1S09 London Kings Cross → Edinburgh 2027-07-16T09:00+01:00 2027-07-16T13:20+01:00 7HQ2MX4P"}},
		{"stations and clocks by labels, the time's word before the clock's", "billetes@fgv.example.es", "Código de reserva: FGV-558120\nOrigen: Alacant Luceros\nDestino: Benidorm\nFecha: 19/09/2027\nHora de salida: 10:05\nHora de llegada: 11:14\n",
			[]string{" Alacant Luceros → Benidorm 2027-09-19T10:05+02:00 2027-09-19T11:14+02:00 FGV-558120"}},
		{"a route alone on its line above labelled clocks", "tickets@rail.example.ca", "Booking number: VIA7Q2K4M\nTrain 65\nMontréal - Toronto\nDeparture 6:30 PM, Wednesday, September 22, 2027\nArrival 11:46 PM, Wednesday, September 22, 2027\n",
			[]string{"65 Montréal → Toronto 2027-09-22T18:30-04:00 2027-09-22T23:46-04:00 VIA7Q2K4M"}},
		{"a sentence, marker and station before each clock, 'and' between", "billets@ter.example.fr", "Référence : TERQ4M81\nLe mardi 5 octobre 2027, votre train TER 17511 part de Nantes à 08h12 et arrive à Angers Saint-Laud à 08h51.\n",
			[]string{"TER 17511 Nantes → Angers Saint-Laud 2027-10-05T08:12+02:00 2027-10-05T08:51+02:00 TERQ4M81"}},
		{"'and is there in'", "billett@tog.example.no", "Referanse: GAN7712044\nTirsdag 5. oktober 2027\nToget går fra Kristiansand kl. 07:36 og er fremme i Stavanger kl. 10:52.\n",
			[]string{" Kristiansand → Stavanger 2027-10-05T07:36+02:00 2027-10-05T10:52+02:00 GAN7712044"}},
		{"the train by its word in lower case", "biljett@tag.example.se", "Bokningsnummer: MT5581204\nTisdag 5 oktober 2027: tåg 547 avgår från Uppsala C kl. 09:12 och ankommer till Gävle C kl. 10:05.\n",
			[]string{"547 Uppsala C → Gävle C 2027-10-05T09:12+02:00 2027-10-05T10:05+02:00 MT5581204"}},
		{"each clock before its station", "tickets@rail.example.co.uk", "Booking reference: GW7Q4M8K\nOutward: Tuesday 19 October 2027\n07:30 London Paddington → 09:02 Bristol Temple Meads\n",
			[]string{" London Paddington → Bristol Temple Meads 2027-10-19T07:30+01:00 2027-10-19T09:02+01:00 GW7Q4M8K"}},
		{"overnight, the departure's day after its clock", "tickets@nuit.example.fr", "Booking reference: INQ6K1X4\nDepart Paris Austerlitz 21:00 on Friday 22 October 2027, arrive Briançon 08:30 on Saturday 23 October 2027.\n",
			[]string{" Paris Austerlitz → Briançon 2027-10-22T21:00+02:00 2027-10-23T08:30+02:00 INQ6K1X4"}},
		{"labels on one line, the train after the arrival", "eshop@vlak.example.cz", "Kód dokladu: CD6612044\nDatum: 21.10.2027\nOdjezd: Ostrava hl.n. 06:12, Příjezd: Olomouc hl.n. 07:20, vlak R 812\n",
			[]string{"R 812 Ostrava hl.n → Olomouc hl.n 2027-10-21T06:12+02:00 2027-10-21T07:20+02:00 CD6612044"}},
		{"a coach between bus stations is no train", "tickets@coach.example.co.uk", "Reservation number: MB55812044\nYour coach departs Manchester Shudehill at 08:00 on 7 October 2027 and arrives at Leeds Bus Station at 09:10.\n",
			nil},
		{"a route by its label, the clocks by their markers alone", "billets@rail.example.ch", "Référence : CFV-771204\nTrajet : Lausanne – Brig\nDate : 17/10/2027\nDépart 08:20\nArrivée 09:58\n",
			[]string{" Lausanne → Brig 2027-10-17T08:20+02:00 2027-10-17T09:58+02:00 CFV-771204"}},
		{"the stations first as a pair, then each clock after its marker", "billett@nattog.example.no", "Referanse: SJN7712044\nNattog 475 Oslo S–Trondheim S, avgang 23:05 fredag 22. oktober 2027, ankomst Trondheim S 06:35 lørdag 23. oktober 2027.\n",
			[]string{"475 Oslo S → Trondheim S 2027-10-22T23:05+02:00 2027-10-23T06:35+02:00 SJN7712044"}},
		{"a table's cells under a header that names each column", "tickets@rail.example.de", "Auftragsnummer: NOB-771204\nHinfahrt am Sonntag, 24. Oktober 2027\n\nVon\tNach\tAb\tAn\n\nHamburg-Altona\tWesterland (Sylt)\t08:12\t11:05\n",
			[]string{" Hamburg-Altona → Westerland (Sylt) 2027-10-24T08:12+02:00 2027-10-24T11:05+02:00 NOB-771204"}},
		{"a header of other words is no table of stops", "tickets@rail.example.de", "Auftragsnummer: NOB-771204\nHinfahrt am Sonntag, 24. Oktober 2027\n\nName\tKlasse\tAb\tAn\n\nHamburg-Altona\tWesterland (Sylt)\t08:12\t11:05\n",
			nil},
		{"the date after the leg on its line", "tickets@rail.example.de", "Auftragsnummer: DBF-661204\nIC 2012, Köln Hbf 10:18 → Hamburg Hbf 14:21, 15.10.2027\n",
			[]string{"IC 2012 Köln Hbf → Hamburg Hbf 2027-10-15T10:18+02:00 2027-10-15T14:21+02:00 DBF-661204"}},
		{"cells apart by bars after the leg: the train, a seat, the weekday and date", "tickets@rail.example.be", "Booking reference: ESQ4T7\nOutbound: Bruxelles-Midi 10:13 → Amsterdam Centraal 12:06 | Train 9327 | Coach 3 Seat 22 | Friday 15 October 2027\n",
			[]string{"9327 Bruxelles-Midi → Amsterdam Centraal 2027-10-15T10:13+02:00 2027-10-15T12:06+02:00 ESQ4T7"}},
		{"a leg's service in parentheses, the weekday and date after it", "tickets@rail.example.de", "Buchungscode: BRB-4471\nMünchen Hbf 08:05 → Lenggries 09:01 (BRB 79555), Montag 18.10.2027\n",
			[]string{"BRB 79555 München Hbf → Lenggries 2027-10-18T08:05+02:00 2027-10-18T09:01+02:00 BRB-4471"}},
		{"a leg on one line, its day under it", "tickets@rail.example.cz", "Kód jízdenky: ARV-551204\nSpoj: Os 2811\nPraha hl.n. 08:10 – Beroun 08:52\nDatum: 19.10.2027\n",
			[]string{"Os 2811 Praha hl.n → Beroun 2027-10-19T08:10+02:00 2027-10-19T08:52+02:00 ARV-551204"}},
		{"stacked blocks, each station before its clock, one the places data does not know, the duration between", "tickets@rail.example.co.uk", "Booking reference: HTR7Q2M4\n\nTuesday 19 October 2027\n\nHull\n\n07:00\n\n2h 45m\n\nLondon Kings Cross\n\n09:45\n",
			[]string{" Hull → London Kings Cross 2027-10-19T07:00+01:00 2027-10-19T09:45+01:00 HTR7Q2M4"}},
		{"stacked blocks with a greeting after the last clock", "tickets@rail.example.ch", "Buchungsnummer: ZB-551204\n\nDienstag, 19. Oktober 2027\n\nMeiringen\n\n09:04\n\n1 h 13 min\n\nLuzern\n\n10:17\n\n2. Klasse\n\nGute Reise wünscht Ihnen die Zentralbahn\n",
			[]string{" Meiringen → Luzern 2027-10-19T09:04+02:00 2027-10-19T10:17+02:00 ZB-551204"}},
		{"a programme's stacked blocks are no leg", "tickets@venue.example.co.uk", "Booking reference: EVQ7M2K4\n\nTuesday 19 October 2027\n\nDoors open\n\n19:00\n\nMain act\n\n20:30\n",
			nil},
		{"stations after their labels, each with its clock", "tickets@rail.example.pl", "Numer biletu: KS5512077\nData podróży: 19.10.2027\nStacja początkowa: Gliwice, godz. 06:48\nStacja docelowa: Katowice, godz. 07:20\n",
			[]string{" Gliwice → Katowice 2027-10-19T06:48+02:00 2027-10-19T07:20+02:00 KS5512077"}},
		{"a route by its label, the departure's date and time by theirs", "tickets@rail.example.co.uk", "Booking reference: SRQ7M2K4\nRoute: Aberdeen - Inverness\nDate and time of departure: 19/10/2027, 07:45\nArrival: 10:05\n",
			[]string{" Aberdeen → Inverness 2027-10-19T07:45+01:00 2027-10-19T10:05+01:00 SRQ7M2K4"}},
		{"a route with a word for 'to' over a line that starts with its date", "tickets@rail.example.co.uk", "Booking reference: GXQ7M2K4\n\nLondon Victoria to Gatwick Airport\nTuesday 19 October 2027, departs 06:30, arrives 07:00\n",
			[]string{" London Victoria → Gatwick Airport 2027-10-19T06:30+01:00 2027-10-19T07:00+01:00 GXQ7M2K4"}},
		{"a sentence, the arrival's marker after its clock, in a mail whose words name no travel", "tickets@rail.example.nl", "Boekingscode: BLN-771204\n\nOp dinsdag 19 oktober 2027 vertrek je om 09:12 uit Zwolle en kom je om 10:05 aan in Enschede.\n",
			[]string{" Zwolle → Enschede 2027-10-19T09:12+02:00 2027-10-19T10:05+02:00 BLN-771204"}},
		{"a delivery slot in a sentence is no leg", "orders@shop.example.co.uk", "Order number: 55120881\n\nYour delivery is booked for Tuesday 19 October 2027 between 10:00 and 12:00 at your address.\n",
			nil},
		{"only the departure's time and no train named is no leg", "bookings@example.com", "Booking reference: QX7M2K\nOrigin: Lisboa\nDestination: Porto\nDeparture: 08:30 19-Oct-2027\n",
			nil},
		{"a service's category and number heading the leg's line", "tickets@bahn.example.at", "Bestellnummer: MZB-551204\nReisedatum: 19.10.2027\nMariazellerbahn P 6802: St. Pölten Hbf ab 08:32, Mariazell an 10:58\n",
			[]string{"P 6802 St. Pölten Hbf → Mariazell 2027-10-19T08:32+02:00 2027-10-19T10:58+02:00 MZB-551204"}},
		{"a card's marked stacked blocks, the service alone under the arrival's station", "tickets@bahn.example.de", "Auftragsnummer: NEB-551207\n\nDienstag, 19.10.2027\n\nAbfahrt\n\n10:04\n\nBerlin-Lichtenberg\n\nAnkunft\n\n11:37\n\nKostrzyn\n\nRB 26\n",
			[]string{"RB 26 Berlin-Lichtenberg → Kostrzyn 2027-10-19T10:04+02:00 2027-10-19T11:37+02:00 NEB-551207"}},
		{"a sentence to the traveller, each verb's second person", "billetes@rail.example.es", "Localizador: RFQ7M2\nEl martes 19 de octubre de 2027 sales de Madrid-Chamartín a las 08:00 y llegas a Valladolid-Campo Grande a las 09:05.\n",
			[]string{" Madrid-Chamartín → Valladolid-Campo Grande 2027-10-19T08:00+02:00 2027-10-19T09:05+02:00 RFQ7M2"}},
		{"labelled stops, the date under them", "tickets@rail.example.co.uk", "Booking reference: TPO7Q2M8\nDeparture: Leeds - 08:02\nArrival: York - 08:25\nDate: 18/10/2027\n",
			[]string{" Leeds → York 2027-10-18T08:02+01:00 2027-10-18T08:25+01:00 TPO7Q2M8"}},
		{"stations' and times' labels, 'time' no station", "tickets@rail.example.co.uk", "Booking reference: GWB7Q2M8\nDeparture station: Bath Spa\nArrival station: London Paddington\nDeparture time: 21/10/2027 07:13\nArrival time: 08:43\n",
			[]string{" Bath Spa → London Paddington 2027-10-21T07:13+01:00 2027-10-21T08:43+01:00 GWB7Q2M8"}},
		{"a six-digit regional train", "billets@ter.example.fr", "Référence : TLR661204\nLe 22 octobre 2027, TER 857300 : Metz 07h12 → Nancy 07h50\n",
			[]string{"TER 857300 Metz → Nancy 2027-10-22T07:12+02:00 2027-10-22T07:50+02:00 TLR661204"}},
		{"a row without a header that names departure and arrival", "tickets@rail.example.co.uk", "Booking reference: 7HQ2MX4P\nYour train\n\n1S09 London Kings Cross 16/07/2027 09:00 Edinburgh 16/07/2027 13:20\n",
			nil},
		{"a card's stacked blocks, each clock over its station", "tickets@rail.example.co.uk", "Booking reference: XC7W8Q2K\nWednesday 13 October 2027\n\n07:30\n\nBirmingham New Street\n\n1h 44m\n\n09:14\n\nBristol Temple Meads\n",
			[]string{" Birmingham New Street → Bristol Temple Meads 2027-10-13T07:30+01:00 2027-10-13T09:14+01:00 XC7W8Q2K"}},
		{"stacked, the markers on lines of their own, a code between", "biglietti@rail.example.it", "Codice prenotazione: TNB771204\nData: 21/10/2027\nPartenza\n08:05\nMilano Centrale\nRJX 165\nArrivo\n09:10\nBergamo\n",
			[]string{"RJX 165 Milano Centrale → Bergamo 2027-10-21T08:05+02:00 2027-10-21T09:10+02:00 TNB771204"}},
		{"stacked, each station over its clock", "tickets@rail.example.de", "Buchungscode: DBR4471\nIhre Reise am 27.10.2027\nKöln Hbf\n08:34\nMünchen Hbf\n12:58\nGute Reise!\n",
			[]string{" Köln Hbf → München Hbf 2027-10-27T08:34+02:00 2027-10-27T12:58+02:00 DBR4471"}},
		{"stacked, a class and a fare under the clocks are no stations", "tickets@rail.example.co.uk", "Booking reference: XC7W8Q2K\nWednesday 13 October 2027\nDeparture\n07:30\nStandard Class\nArrival\n09:14\nAdvance Single\n",
			nil},
		{"each stop a clock and its station on a line of its own", "tickets@rail.example.co.uk", "Booking reference: TLQ7W8Q2\nWednesday 13 October 2027\n07:30 Birmingham New Street\n09:14 Bristol Temple Meads\n",
			[]string{" Birmingham New Street → Bristol Temple Meads 2027-10-13T07:30+01:00 2027-10-13T09:14+01:00 TLQ7W8Q2"}},
		{"calling points are no legs", "tickets@rail.example.co.uk", "Booking reference: XCB7W8Q2\nWednesday 13 October 2027\nDepart Leeds 08:00\nArrive Newcastle 09:35\nCalling at:\n08:21 York\n08:52 Darlington\n09:10 Durham\n",
			[]string{" Leeds → Newcastle 2027-10-13T08:00+01:00 2027-10-13T09:35+01:00 XCB7W8Q2"}},
		{"a table's cells apart by bars", "billetes@rail.example.es", "Localizador: RNF447\nFecha: 30/10/2027\nMadrid-Puerta de Atocha 08:30 | Barcelona-Sants 11:02 | AVE 03063\n",
			[]string{"AVE 03063 Madrid-Puerta de Atocha → Barcelona-Sants 2027-10-30T08:30+02:00 2027-10-30T11:02+02:00 RNF447"}},
		{"'From:' and 'To:', both clocks marked on one line", "tickets@rail.example.co.uk", "Booking ref: NR4471\nDate of travel: 28/10/2027\nFrom: Leeds\nTo: York\nDeparts 08:02, arrives 08:25\n",
			[]string{" Leeds → York 2027-10-28T08:02+01:00 2027-10-28T08:25+01:00 NR4471"}},
		{"a quoted header's address is no station", "tickets@rail.example.co.uk", "Booking ref: NR4471\nDate of travel: 28/10/2027\nFrom: Anna <anna@example.co.uk>\nTo: Sam <sam@example.co.uk>\nDeparts 08:02, arrives 08:25\n",
			nil},
		{"the stations apart by 'to', the clocks marked below", "tickets@rail.example.co.uk", "Booking reference: SCR4471\nFriday 29 October 2027\nEdinburgh Waverley to Glasgow Queen Street\nDeparting 08:00, arriving 08:50\n",
			[]string{" Edinburgh Waverley → Glasgow Queen Street 2027-10-29T08:00+01:00 2027-10-29T08:50+01:00 SCR4471"}},
		{"a platform between the departure's clock and the arrival", "tickets@rail.example.co.uk", "Your booking reference is LNQ4M8K2.\nOn Wednesday 13 October 2027 your train leaves Leeds at 08:10 from platform 4 and arrives at York at 08:34.\n",
			[]string{" Leeds → York 2027-10-13T08:10+01:00 2027-10-13T08:34+01:00 LNQ4M8K2"}},
		{"a regional train's kind before its number", "viaggi@rail.example.it", "PNR: TNV4Q2\nRegionale Veloce 2615 del 18/10/2027\nMilano Centrale (09:20) - Tirano (11:52)\n",
			[]string{"2615 Milano Centrale → Tirano 2027-10-18T09:20+02:00 2027-10-18T11:52+02:00 TNV4Q2"}},
		{"stacked, stations over clocks, a duration between", "tickets@rail.example.co.uk", "Booking reference: HTQ7M2K4\nMonday 18 October 2027\nLeeds\n07:00\n24m\nYork\n07:24\n",
			[]string{" Leeds → York 2027-10-18T07:00+01:00 2027-10-18T07:24+01:00 HTQ7M2K4"}},
		{"a one-line leg, its service alone on the line under it", "billets@rail.example.fr", "Référence : TOQ5M2XK\nVotre trajet du lundi 25 octobre 2027\nMontpellier Saint-Roch 10:02 → Nîmes 10:31\nTER 876511\n",
			[]string{"TER 876511 Montpellier Saint-Roch → Nîmes 2027-10-25T10:02+02:00 2027-10-25T10:31+02:00 TOQ5M2XK"}},
		{"both stations' labels on one line, both clocks' on the next", "webshop@rail.example.hu", "Booking code: MV5512044\nDate: 11.10.2027\nTrain: IC 560\nFrom: Budapest-Keleti  To: Miskolc-Tiszai\nDeparture 07:00  Arrival 09:17\n",
			[]string{"IC 560 Budapest-Keleti → Miskolc-Tiszai 2027-10-11T07:00+02:00 2027-10-11T09:17+02:00 MV5512044"}},
		{"a row of code, station, marker and clock, the ticket's code its reference", "tickets@rail.example.bg", "Ticket code: BDZ5512044\nMonday, 11 October 2027\nBV 8611  Sofia  dep. 07:00  Plovdiv  arr. 09:41\n",
			[]string{"BV 8611 Sofia → Plovdiv 2027-10-11T07:00+03:00 2027-10-11T09:41+03:00 BDZ5512044"}},
		{"a sentence wrapped after its first clock, the arrival's stop before its clock", "biljett@kroesa.example.se", "Biljettnummer: KT40551207\nDin resa går fredag 12 mars 2027 kl. 09:14 från Växjö\noch du är framme i Alvesta kl. 09:32.\n",
			[]string{" Växjö → Alvesta 2027-03-12T09:14+01:00 2027-03-12T09:32+01:00 KT40551207"}},
		{"two stops apart by spaces alone, named as the places data knows them", "bilhetes@comboios.example.pt", "Código de reserva: CP5512304\n24/03/2027\nLisboa Santa Apolónia 09:00 Porto Campanhã 11:49\n",
			[]string{" Lisboa Santa Apolónia → Porto Campanhã 2027-03-24T09:00+00:00 2027-03-24T11:49+00:00 CP5512304"}},
		{"apart by spaces, names no station's", "bilhetes@comboios.example.pt", "Código de reserva: CP5512304\nComboio 24/03/2027\nCheck-in 09:00 Embarque 11:49\n",
			nil},
		{"labelled cells on one line", "biglietti@fse.example.it", "Codice biglietto: FSE7Q2M41\nData: 23/03/2027\nDa: Lecce  A: Gallipoli  Partenza: 08:15  Arrivo: 09:22\n",
			[]string{" Lecce → Gallipoli 2027-03-23T08:15+01:00 2027-03-23T09:22+01:00 FSE7Q2M41"}},
		{"a table's two rows under its header, the train's column first", "biglietti@treni.example.it", "Codice prenotazione: TV9QK21\nTreno\tPartenza\tOra\tArrivo\tOra\n\nFR 9527\tMilano Centrale\t18/12/2027 07:45\tRoma Termini\t18/12/2027 10:12\n\nRV 2331\tRoma Termini\t18/12/2027 10:50\tNapoli Centrale\t18/12/2027 12:58\n",
			[]string{"FR 9527 Milano Centrale → Roma Termini 2027-12-18T07:45+01:00 2027-12-18T10:12+01:00 TV9QK21",
				"RV 2331 Roma Termini → Napoli Centrale 2027-12-18T10:50+01:00 2027-12-18T12:58+01:00 TV9QK21"}},
		{"the train's column last, a weekday before each date", "tickets@bahn.example.de", "Buchungsnummer: TD-5512301\nAbfahrt\tAnkunft\tZug\n\nRosenheim Di, 15.10.2030 08:15\tSalzburg Hbf Di, 15.10.2030 09:09\tRE 5\n",
			[]string{"RE 5 Rosenheim → Salzburg Hbf 2030-10-15T08:15+02:00 2030-10-15T09:09+02:00 TD-5512301"}},
		{"a leg in a sentence, its day under it", "tickets@bahn.example.de", "Buchungsnummer: RN-558120\n\nAbfahrt 07:45 ab Hamburg Hbf, Ankunft 10:12 in Berlin Hbf. Zug: ICE 1709.\nDatum: 18.12.2027\n",
			[]string{"ICE 1709 Hamburg Hbf → Berlin Hbf 2027-12-18T07:45+01:00 2027-12-18T10:12+01:00 RN-558120"}},
		{"a British headcode is the train's number after its label, no category and number", "tickets@rail.example.co.uk", "Booking reference: FL7QX2\nYour journey on Saturday 18 December 2027: departure 07:45 from Leeds, arrival 10:12 in London Kings Cross. Train 1A27.\n",
			[]string{"1A27 Leeds → London Kings Cross 2027-12-18T07:45+00:00 2027-12-18T10:12+00:00 FL7QX2"}},
		{"a sentence whose stops carry ISO 8601 timestamps", "noreply@rail.example.com", "Confirmation number: CR55102\nTrain 768 departs San Diego Santa Fe Depot at 2027-12-18T07:45:00-08:00 and arrives Los Angeles Union Station at 2027-12-18T10:38:00-08:00.\n",
			[]string{"768 San Diego Santa Fe Depot → Los Angeles Union Station 2027-12-18T07:45-08:00 2027-12-18T10:38-08:00 CR55102"}},
		{"a sentence whose stops carry their day before the clock", "noreply@rail.example.com", "Confirmation number: CR55102\nTrain 768 departs San Diego Santa Fe Depot on 12/18/2027 at 07:45 and arrives Los Angeles Union Station on 12/18/2027 at 10:38.\n",
			[]string{"768 San Diego Santa Fe Depot → Los Angeles Union Station 2027-12-18T07:45-08:00 2027-12-18T10:38-08:00 CR55102"}},
		{"clocks before their stops, the departure's marker before its station, each day in the sentence", "tickets@bahn.example.at", "Buchungscode: WR-448812\nIhr Zug WB 911 fährt am 18.12.2027 um 07:45 ab Wien Westbahnhof und kommt am 18.12.2027 um 10:12 in Salzburg Hbf an.\n",
			[]string{"WB 911 Wien Westbahnhof → Salzburg Hbf 2027-12-18T07:45+01:00 2027-12-18T10:12+01:00 WR-448812"}},
		{"a category, a brand and the number after its word, under the leg", "tickets@bahn.example.de", "Auftragsnummer: 77120034\nHinfahrt am 18.12.2027\nKöln Hbf 07:45 – Frankfurt(Main)Hbf 08:49\nICE Sprinter Nr. 1003, Wagen 5, Platz 71\n",
			[]string{"ICE Sprinter 1003 Köln Hbf → Frankfurt(Main)Hbf 2027-12-18T07:45+01:00 2027-12-18T08:49+01:00 77120034"}},
		{"an order's number after its word under the leg is no train", "tickets@bahn.example.de", "Auftragsnummer: 77120034\nHinfahrt am 18.12.2027\nKöln Hbf 07:45 – Frankfurt(Main)Hbf 08:49\nKunde Online Nr. 1003, Wagen 5\n",
			[]string{" Köln Hbf → Frankfurt(Main)Hbf 2027-12-18T07:45+01:00 2027-12-18T08:49+01:00 77120034"}},
		{"clocks before their stations with an arrow, the train under the leg", "tickets@highspeed.example.co.uk", "Booking reference: ESX4Q2\nOutbound: Sat 18 Dec 2027\n07:01  London St Pancras Int'l  →  10:20  Paris Gare du Nord\nTrain 9004, Coach 7, Seat 61\n",
			[]string{"9004 London St Pancras Int'l → Paris Gare du Nord 2027-12-18T07:01+00:00 2027-12-18T10:20+01:00 ESX4Q2"}},
		{"the train and a word for from before the station", "billett@tog.example.no", "Referanse: VY-77120\nTog R20 fra Oslo S kl. 07:45 til Halden kl. 09:31, lørdag 18. desember 2027.\n",
			[]string{"R20 Oslo S → Halden 2027-12-18T07:45+01:00 2027-12-18T09:31+01:00 VY-77120"}},
		{"two labelled stops apart by a bar, the word for o'clock after each clock", "tickets@trein.example.nl", "Boekingscode: NSR-88412\nZaterdag 18 december 2027\nVertrek: 07:45 uur, Utrecht Centraal | Aankomst: 10:12 uur, Maastricht\nIntercity 3512\n",
			[]string{"Intercity 3512 Utrecht Centraal → Maastricht 2027-12-18T07:45+01:00 2027-12-18T10:12+01:00 NSR-88412"}},
		{"stops apart by a semicolon, the train under them", "jizdenky@vlak.example.cz", "Kód dokladu: CDX88120\nDatum cesty: 18.12.2027\nOdjezd 07:45 Praha hl.n.; Příjezd 10:12 Brno hl.n.\nVlak EC 171\n",
			[]string{"EC 171 Praha hl.n → Brno hl.n 2027-12-18T07:45+01:00 2027-12-18T10:12+01:00 CDX88120"}},
		{"a span of clocks with its duration over a pair of stations", "tickets@railbook.example.co.uk", "Booking reference: TLX77Q2\nYour train tickets\nSat, 18 Dec 2027\n07:45 → 10:12 (2h 27m)\nLondon Euston → Manchester Piccadilly\n",
			[]string{" London Euston → Manchester Piccadilly 2027-12-18T07:45+00:00 2027-12-18T10:12+00:00 TLX77Q2"}},
		{"outward and return legs on a line each, the service after a middle dot", "billetes@tren.example.es", "Localizador: RV8Q2Z\nIDA - viernes 17/12/2027\nMadrid-Chamartín 08:00 → Valladolid 09:05 · AVANT 08061\nVUELTA - domingo 19/12/2027\nValladolid 19:30 → Madrid-Chamartín 20:38 · AVANT 08272\n",
			[]string{"08061 Madrid-Chamartín → Valladolid 2027-12-17T08:00+01:00 2027-12-17T09:05+01:00 RV8Q2Z",
				"08272 Valladolid → Madrid-Chamartín 2027-12-19T19:30+01:00 2027-12-19T20:38+01:00 RV8Q2Z"}},
		{"labelled stops with a weekday before each date", "liput@rata.example.fi", "Tilausnumero: 55120934\nLähtö: Helsinki, la 18.12.2027 klo 7.12\nSaapuminen: Turku, la 18.12.2027 klo 9.09\nJuna: IC 951\n",
			[]string{"IC 951 Helsinki → Turku 2027-12-18T07:12+02:00 2027-12-18T09:09+02:00 55120934"}},
		{"a card's stops: the label, the station, the day and clock; the next label joined to the clock", "reservas@tren.example.es", "Código de reserva: TE4Q2M\n\nSalida\nBarcelona-Sants\n18/12/2027 07:45 → Llegada\nMadrid-Puerta de Atocha\n18/12/2027 10:15\n\nTren AVE 03062 · Coche 4 · Plaza 7A\n",
			[]string{"AVE 03062 Barcelona-Sants → Madrid-Puerta de Atocha 2027-12-18T07:45+01:00 2027-12-18T10:15+01:00 TE4Q2M"}},
		{"a service by its brand and number over the leg, a dash before the day", "bilhetes@comboios.example.pt", "Código de reserva: CP5512304\nAlfa Pendular 131 - 24/07/2030\nLisboa Santa Apolónia 09:00 Porto Campanhã 11:49\n",
			[]string{"Alfa Pendular 131 Lisboa Santa Apolónia → Porto Campanhã 2030-07-24T09:00+01:00 2030-07-24T11:49+01:00 CP5512304"}},
		{"a booking's label and number over the leg is no service", "bilhetes@comboios.example.pt", "Código de reserva: CP5512304\nReserva 4412 - 24/07/2030\nLisboa Santa Apolónia 09:00 Porto Campanhã 11:49\n",
			[]string{" Lisboa Santa Apolónia → Porto Campanhã 2030-07-24T09:00+01:00 2030-07-24T11:49+01:00 CP5512304"}},
		{"stacked, a programme's items are no stations", "tickets@events.example.co.uk", "Booking reference: RH-771204\nSaturday 23 October 2027\n19:00\nDoors open\n20:15\nMain act\n",
			nil},
		{"stacked, a tour's towns on two days are no leg", "tickets@events.example.co.uk", "Booking reference: LN-771204\nSaturday 23 October 2027\n19:30\nManchester\nSunday 24 October 2027\n19:30\nLeeds\n",
			nil},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: c.from}}, Subject: "Biljett / ticket", Text: c.text,
			Date: time.Date(2027, 2, 8, 9, 0, 0, 0, time.UTC)}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && f.Kind == extract.KindTrain && s.Depart != nil && s.Arrive != nil {
				got = append(got, s.Number+" "+s.From.Name+" → "+s.To.Name+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+
					s.Arrive.Format("2006-01-02T15:04-07:00")+" "+s.Reservation)
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestTrainAfterFlightWords: stops by their labels in a mail whose words
// are a flight's ("e-ticket") and that names no airport are a train's.
func TestTrainAfterFlightWords(t *testing.T) {
	msg := &mime.Message{From: []mime.Address{{Address: "tickets@rail.example.co.uk"}}, Subject: "Your e-ticket",
		Text: "Booking reference: NT6Q1K4Z\nDate: 20/10/2027\n\nDeparture: Leeds, 08:02\nArrival: York, 08:25\n",
		Date: time.Date(2027, 10, 1, 9, 0, 0, 0, time.UTC)}
	var got []string
	for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
		if s := f.Segment; s != nil && s.Depart != nil && s.Arrive != nil {
			got = append(got, f.Kind+" "+s.From.Name+" → "+s.To.Name+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Arrive.Format("2006-01-02T15:04-07:00"))
		}
	}
	if want := "train Leeds → York 2027-10-20T08:02+01:00 2027-10-20T08:25+01:00"; strings.Join(got, "\n") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestBusTickets: a bus or coach operator's ticket is a bus plan, never a
// train, though it speaks of a coach, a station and a seat as trains do;
// its bay ("Steig 5", "Stance 52", "(dársena 12)") is no part of a stop's
// name, and a seat or a coach with its number is no stop. A bus's own
// number after its label ("Bus-Nr. N 1174") is the leg's.
func TestBusTickets(t *testing.T) {
	for _, c := range []struct {
		name, from, text string
		want             []string // type from → to depart
	}{
		{"a coach's ticket with a coach station and a seat", "tickets@coachway.example.co.uk", "Your coach ticket\nBooking reference: CX4471920\nOutward: Sunday 19 September 2027\nDeparts 10:30 Birmingham Coach Station\nArrives 13:05 London Victoria Coach Station\nService 420 · Seat 7\n",
			[]string{"bus [420] Birmingham Coach Station → London Victoria Coach Station 2027-09-19T10:30+01:00"}},
		{"a bay in parentheses after the stop is no train, each leg's line its number", "reservation@autocars.example.fr", "Numéro de réservation : OAC-448120\nALLER — vendredi 3 septembre 2027\nDépart 07h10 Nantes, gare routière (quai 4)\nArrivée 11h25 Bordeaux Saint-Jean, gare routière\nLigne 1510 – Siège 18\nRETOUR — dimanche 5 septembre 2027\nDépart 18h00 Bordeaux Saint-Jean, gare routière\nArrivée 22h20 Nantes, gare routière\nLigne 1511 – Siège 9\n",
			[]string{"bus [1510] Nantes, gare routière → Bordeaux Saint-Jean, gare routière 2027-09-03T07:10+02:00", "bus [1511] Bordeaux Saint-Jean, gare routière → Nantes, gare routière 2027-09-05T18:00+02:00"}},
		{"one line's label under both legs", "service@fernbus.example.de", "Buchungsnummer: 2207 5519 83\nHinfahrt · Do., 08.07.2027\n10:05  Köln ZOB (Steig 3)\n14:50  Frankfurt (Main) Hbf Südseite\nLinie 032 · Sitzplatz 7A\nRückfahrt · So., 11.07.2027\n16:20  Frankfurt (Main) Hbf Südseite\n21:10  Köln ZOB\nLinie 032 · Sitzplatz 12D\nKundenservice 0800 123 4567\n",
			[]string{"bus [032] Köln ZOB → Frankfurt (Main) Hbf Südseite 2027-07-08T10:05+02:00", "bus [032] Frankfurt (Main) Hbf Südseite → Köln ZOB 2027-07-11T16:20+02:00"}},
		{"a bus's run read as a train's service, a bay after a comma", "bilety@autobusy.example.pl", "Numer rezerwacji: SB-3381920\nWyjazd: 22.10.2027, godz. 08:15, Wrocław Dworzec Autobusowy, stanowisko 7\nPrzyjazd: 22.10.2027, godz. 11:40, Jelenia Góra Dworzec Autobusowy\nKurs 517, miejsce 24\n",
			[]string{"bus [517] Wrocław Dworzec Autobusowy → Jelenia Góra Dworzec Autobusowy 2027-10-22T08:15+02:00"}},
		{"a bay's word of another language, a stand", "tickets@coaches.example.co.uk", "Booking reference: DK4471920\nYour coach ticket\nSaturday 9 October 2027\nDepart 09:10 Aarhus Rutebilstation, stade 3\nArrive 12:20 Odense Banegård, stand 6\n",
			[]string{"bus [] Aarhus Rutebilstation → Odense Banegård 2027-10-09T09:10+02:00"}},
		{"a coach's ticket that never says bus: its bay does", "reservas@expressos.example.pt", "Referência da reserva: RX-5521093\nViagem de ida: 23/04/2027\nPartida: 09:00 Lisboa - Oriente (cais 12)\nChegada: 12:30 Coimbra\nLugar 17\n",
			[]string{"bus [] Lisboa - Oriente → Coimbra 2027-04-23T09:00+01:00"}},
		{"a train's platform is no bus's bay", "tickets@bahn.example.de", "Buchungsnummer: 7Q4M8K\nHinfahrt am 21.08.2027\nab 08:15 München Hbf, Bahnsteig 5\nan 13:40 Berlin Hbf\n",
			[]string{"train [] München Hbf → Berlin Hbf 2027-08-21T08:15+02:00"}},
		{"a table's direction column before the date's is no part of the stop", "billetes@autocares.example.es", "Billete de autobús\nLocalizador: K9TQ2L\nTrayecto\tFecha\tOrigen\tSalida\tDestino\tLlegada\tDársena\nIda\t12/06/2027\tMadrid Estación Sur\t08:30\tValencia Estación de Autobuses\t12:45\t14\nVuelta\t15/06/2027\tValencia Estación de Autobuses\t17:00\tMadrid Estación Sur\t21:10\t3\n",
			[]string{"bus [] Madrid Estación Sur → Valencia Estación de Autobuses 2027-06-12T08:30+02:00", "bus [] Valencia Estación de Autobuses → Madrid Estación Sur 2027-06-15T17:00+02:00"}},
		{"a month before its year after the clock is no service, a stop's number no part of it", "tickets@valleylink.example.co.uk", "Thanks for booking with Valley Link coaches. Your booking reference is VL8842197.\nLeaving: Cardiff, Kingsway (Stop 3) at 07:15 on Saturday 12 June 2027\nArriving: Bristol, Anchor Road at 08:20\n",
			[]string{"bus [] Cardiff, Kingsway → Bristol, Anchor Road 2027-06-12T07:15+01:00"}},
		{"a brand's word ending in the bus's (Swedish -bussen) makes a bus", "bokning@kustbussen.example.se", "Tack för din bokning hos Västkustbussen.\nBokningsnummer: VKB-771023\nResa: Göteborg Nils Ericson Terminalen – Stockholm Cityterminalen\nAvgång: 2027-11-05 07:30\nAnkomst: 2027-11-05 14:10\n",
			[]string{"bus [] Göteborg Nils Ericson Terminalen → Stockholm Cityterminalen 2027-11-05T07:30+01:00"}},
		{"a marker, a date and an AM/PM clock over each stop, a gate after one, a part in parentheses", "noreply@lines.example.com", "Your bus trip\nConfirmation #: 7731-4420-981\nDepart: Tue, Mar 9, 2027 8:15 AM\nNew York Port Authority Bus Terminal - Gate 72\nArrive: Tue, Mar 9, 2027 12:40 PM\nBoston, MA (South Station Bus Terminal)\n",
			[]string{"bus [] New York Port Authority Bus Terminal → Boston, MA (South Station Bus Terminal) 2027-03-09T08:15-05:00"}},
		{"a timetable's change names no booking: no leg", "newsletter@fernbus.example.de", "Fahrplanänderung der Linie 042 ab 01.04.2027:\nAbfahrt Berlin ZOB neu 08:30 (bisher 08:15)\nAnkunft Leipzig Hbf Ostseite neu 10:50 (bisher 10:35)\nBereits gebuchte Fahrten sind nicht betroffen.\n",
			nil},
		{"a bay after the stop, Bus-Nr., Hinfahrt", "buchung@fernreise.example.de", "Buchungsnummer: 3049581127\nHinfahrt: Sa., 21.08.2027\n08:15  München ZOB, Steig 5\n13:40  Berlin Südkreuz\nBus-Nr. N 1174 · Sitzplatz 14C\n",
			[]string{"bus [N 1174] München ZOB → Berlin Südkreuz 2027-08-21T08:15+02:00"}},
		{"autobús, a bay in parentheses", "billetes@autocares.example.es", "Billete de autobús\nLocalizador: AM7Q2K\nFecha: 14/08/2027\nSalida: 09:00 Madrid Estación Sur (dársena 12)\nLlegada: 13:15 Valencia Estación de Autobuses\nAsiento: 23\n",
			[]string{"bus [] Madrid Estación Sur → Valencia Estación de Autobuses 2027-08-14T09:00+02:00"}},
		{"a route line, a stance and a gate", "noreply@megabus.example.co.uk", "Reservation number: MB-88410372\nRoute: Glasgow -> London\nCoach: M11\nSeat 12A\nFriday 18 June 2027\n23:00  Glasgow, Buchanan Bus Station, Stance 52\n07:15  London, Victoria Coach Station, Gate 14\n",
			[]string{"bus [] Glasgow, Buchanan Bus Station → London, Victoria Coach Station 2027-06-18T23:00+01:00"}},
		{"a bus's word and line heading the first stop are no part of it, the line its number", "biljett@linjebuss.example.se", "Din bussbiljett\nBokningsnummer: LB-55120\nLördag 18 december 2027\nBuss 832 Göteborg Nils Ericson Terminalen 07:45 - Oslo Bussterminal 11:20\n",
			[]string{"bus [832] Göteborg Nils Ericson Terminalen → Oslo Bussterminal 2027-12-18T07:45+01:00"}},
		{"autocarro heading the first stop", "bilhetes@redeexp.example.pt", "O seu bilhete\nCódigo de reserva: RE-77120\nAutocarro Lisboa (Sete Rios) 07:45 → Porto (Campanhã) 11:15\nData: 18/12/2027\nLugar 23\n",
			[]string{"bus [] Lisboa (Sete Rios) → Porto (Campanhã) 2027-12-18T07:45+00:00"}},
		{"a seat and a coach after the markers are no stops", "tickets@coach.example.co.uk", "Booking reference: NX7Q4M8K\nYour coach journey\nTuesday 19 October 2027\nDepart 07:30 Coach 5\nArrive 09:02 Seat 12A\n",
			nil},
		{"a dotted clock after klo before the stop (Finnish), no colon clock in the mail", "varaukset@linjat.example.fi", "Varausnumero: LA-7730219\nLähtö: pe 12.11.2027 klo 08.00 Helsinki, Kampin linja-autoasema, laituri 12\nSaapuminen: pe 12.11.2027 klo 10.30 Tampere, linja-autoasema\nVuoro 3124\n",
			[]string{"bus [3124] Helsinki, Kampin linja-autoasema → Tampere, linja-autoasema 2027-11-12T08:00+02:00"}},
		{"Avreise over Ankomst in a mail that offers a hotel: a journey, no stay", "bestilling@kyst.example.no", "Bestillingsnummer: KL-228190\nAvreise: man 03.07.2028 kl. 14.30 Trondheim bussterminal, plattform 2\nAnkomst: man 03.07.2028 kl. 19.10 Ålesund rutebilstasjon\nRute 650, sete 8\nOvernatting i Ålesund? Hotellpartneren vår gir rabatt.\n",
			[]string{"bus [650] Trondheim bussterminal → Ålesund rutebilstasjon 2028-07-03T14:30+02:00"}},
		{"a night bus's (+1) after the arrival's clock", "resor@nattbuss.example.se", "Bokningsnummer: NB-448120\nFre 10.03.2028\n21:45  Stockholm Cityterminalen, läge 14\n07:20 (+1)  Umeå busstation\n",
			[]string{"bus [] Stockholm Cityterminalen → Umeå busstation 2028-03-10T21:45+01:00"}},
		{"a bus's word and number under the stops, a bay of Brazil's, a first stop of sixty characters with accents", "passagens@serrano.example.com.br", "Localizador: ES-558210\nSexta-feira, 18/08/2028\n22:00  São Paulo, Terminal Rodoviário Tietê, plataforma 32\n06:15 (+1)  Rio de Janeiro, Rodoviária Novo Rio\nExpresso Serrano, Ônibus 4410 · Poltrona 12 (leito)\n",
			[]string{"bus [4410] São Paulo, Terminal Rodoviário Tietê → Rio de Janeiro, Rodoviária Novo Rio 2028-08-18T22:00-03:00"}},
		{"a provider and the bus's number after a comma", "buchung@omio.example.de", "Buchungsnummer: OM-4471920\nFr., 01.10.2027\nAbfahrt: Berlin ZOB 07:30\nAnkunft: Praha ÚAN Florenc 12:05\nAnbieter: RegioJet, Bus 441\n",
			[]string{"bus [441] Berlin ZOB → Praha ÚAN Florenc 2027-10-01T07:30+02:00"}},
		{"a rail replacement bus after its stop in a rail booking", "tickets@rheintal.example.de", "Buchungsnummer: RT-8K4Q2M\nHinfahrt am 17.06.2028\n\nab 08:12 Köln Hbf, Gleis 4       RE 5\nan 09:02 Koblenz Hbf\n\nab 09:20 Koblenz Hbf             Bus 9305 (Ersatzverkehr)\nan 10:05 Boppard Hbf\n",
			[]string{"train [RE 5] Köln Hbf → Koblenz Hbf 2028-06-17T08:12+02:00", "bus [Bus 9305] Koblenz Hbf → Boppard Hbf 2028-06-17T09:20+02:00"}},
		{"a train's coach and seat between its stops", "tickets@rail.example.co.uk", "Booking reference: GW7Q4M8K\nOutward: Tuesday 19 October 2027\n07:30\nLondon Paddington\nCoach C, Seat 42\n09:02\nBristol Temple Meads\n",
			[]string{"train [] London Paddington → Bristol Temple Meads 2027-10-19T07:30+01:00"}},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: c.from}}, Subject: "Ticket", Text: c.text,
			Date: time.Date(2027, 2, 8, 9, 0, 0, 0, time.UTC)}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && s.Depart != nil {
				got = append(got, f.Kind+" ["+s.Number+"] "+s.From.Name+" → "+s.To.Name+" "+s.Depart.Format("2006-01-02T15:04-07:00"))
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestCellTableLegs: a ticket laid out as a table whose columns are the
// stops (each stop's station, clock and date stacked in its column), as
// the mime package flattens it from HTML, whatever the operator: the
// train named above the table, the departure's column by its marker or
// its header.
func TestCellTableLegs(t *testing.T) {
	for _, c := range []struct {
		name, html string
		want       []string
	}{
		{"stations with codes, clocks and dates on the rows under them, the train in a header cell",
			`<p>Reservation Number: 4C2F9A</p><table><tr><th colspan="2">Train 171: Northeast Regional</th></tr>` +
				`<tr><td>New York, NY - Penn Station (NYP)</td><td>Washington, DC - Union Station (WAS)</td></tr>` +
				`<tr><td>Depart 8:05 AM</td><td>Arrive 11:35 AM</td></tr>` +
				`<tr><td>Friday, June 18, 2027</td><td>Friday, June 18, 2027</td></tr><tr><td>1 Adult</td><td>Coach Seat</td></tr></table>`,
			[]string{"171 New York, NY - Penn Station (NYP) → Washington, DC - Union Station (WAS) 2027-06-18T08:05-04:00 2027-06-18T11:35-04:00"}},
		{"a header row names the columns, the date above the table",
			`<p>Localizador: T7KQ2M</p><p>Viaje de ida · martes, 19 de octubre de 2027 · Tren AVE 02071</p>` +
				`<table><tr><th>Salida</th><th>Llegada</th></tr><tr><td>Madrid - Puerta de Atocha</td><td>Sevilla - Santa Justa</td></tr>` +
				`<tr><td>08:00</td><td>10:32</td></tr><tr><td>Coche 5</td><td>Plaza 7A</td></tr></table>`,
			[]string{"AVE 02071 Madrid - Puerta de Atocha → Sevilla - Santa Justa 2027-10-19T08:00+02:00 2027-10-19T10:32+02:00"}},
		{"the arrival's column first, by its header",
			`<p>Booking reference: TT7Q2M</p><p>Train IC 512, Tuesday 19 October 2027</p>` +
				`<table><tr><th>Arrival</th><th>Departure</th></tr><tr><td>Utrecht Centraal</td><td>Amsterdam Centraal</td></tr>` +
				`<tr><td>10:27</td><td>10:00</td></tr></table>`,
			[]string{"IC 512 Amsterdam Centraal → Utrecht Centraal 2027-10-19T10:00+02:00 2027-10-19T10:27+02:00"}},
		{"three stop columns: the change's arrival and departure by their markers, each leg's train in its departure's column",
			`<p>Auftragsnummer: 58213370</p><p>Hinfahrt, Samstag, 12. Juni 2027</p><table><tr><td>Zürich HB</td><td>Bern</td><td>Interlaken Ost</td></tr>` +
				`<tr><td>ab 08:02</td><td>an 08:58 / ab 09:04</td><td>an 09:55</td></tr><tr><td>IC 8 Gleis 32</td><td>IC 61 Gleis 5</td><td>Gleis 2</td></tr></table>`,
			[]string{"IC 8 Zürich HB → Bern 2027-06-12T08:02+02:00 2027-06-12T08:58+02:00", "IC 61 Bern → Interlaken Ost 2027-06-12T09:04+02:00 2027-06-12T09:55+02:00"}},
		{"a price table of three columns is no leg",
			`<p>Train tickets, booking reference TT7Q2M, Tuesday 19 October 2027</p><table><tr><th>Fare</th><th>Price</th><th>Seats</th></tr>` +
				`<tr><td>Adult</td><td>12.50</td><td>2</td></tr><tr><td>Child</td><td>6.25</td><td>1</td></tr></table>`,
			nil},
		{"a price table is no leg",
			`<p>Train tickets, booking reference TT7Q2M, Tuesday 19 October 2027</p><table><tr><th>Fare</th><th>Price</th></tr>` +
				`<tr><td>Adult</td><td>12.50</td></tr><tr><td>Child</td><td>6.25</td></tr></table>`,
			nil},
	} {
		raw := "From: Tickets <tickets@rail.example.com>\r\nSubject: Your train ticket\r\nDate: Mon, 04 Oct 2027 10:00:00 +0000\r\n" +
			"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<html><body>" + c.html + "</body></html>\r\n"
		msg := mime.Parse([]byte(raw))
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && f.Kind == extract.KindTrain && s.Depart != nil && s.Arrive != nil {
				got = append(got, s.Number+" "+s.From.Name+" → "+s.To.Name+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+
					s.Arrive.Format("2006-01-02T15:04-07:00"))
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestDepartureOnlyLeg: a ticket that gives only its departure's time is
// a leg when its train is named by its label (Indian Railways' labels,
// no space after their colons, "19-Oct-2027"); the departure's zone is
// the arrival's town's when the boarding station is in none the places
// data knows. Without a train named, a lone labelled clock is no leg.
func TestDepartureOnlyLeg(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"labelled train", "PNR No.:9876543210,\nTrain No.:12345,\nScheduled Departure:08:15 19-Oct-2027,\nBoarding Station:KALYAN JN - KYN,\nTo:PUNE JUNCTION - PUNE,\n",
			"12345 KALYAN JN - KYN → PUNE JUNCTION - PUNE 2027-10-19T08:15+05:30 9876543210"},
		{"no train named", "Booking reference: QX7M2K\nOrigin: Lisboa\nDestination: Porto\nDeparture: 08:30 19-Oct-2027\n", ""},
		// A text message's one line: fields apart by commas, the route
		// by its stations' codes, the clock labelled as the time.
		{"a text message's fields", "PNR:4417203958,TRAIN:22691,DOJ:14-11-2027,TIME:20:00,3A,SBC TO NZM,A SHARMA+1,B2 33 B2 36,FARE:4210\n",
			"22691 SBC → NZM 2027-11-14T20:00+05:30 4417203958"},
		{"a text message without a train named", "PNR:4417203958,DOJ:14-11-2027,TIME:20:00,3A,SBC TO NZM,FARE:4210\n", ""},
	} {
		msg := &mime.Message{From: []mime.Address{{Address: "tickets@example.com"}}, Subject: "Ticket", Text: c.text,
			Date: time.Date(2027, 2, 8, 9, 0, 0, 0, time.FixedZone("", 19800))}
		var got []string
		for _, f := range extract.Extract(msg, msgauth.Verdict{}).Facts {
			if s := f.Segment; s != nil && f.Kind == extract.KindTrain && s.Depart != nil && s.Arrive == nil {
				got = append(got, s.Number+" "+s.From.Name+" → "+s.To.Name+" "+s.Depart.Format("2006-01-02T15:04-07:00")+" "+s.Reservation)
			}
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
