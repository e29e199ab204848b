package extract_test

import (
	"strings"
	"testing"
)

// TestProposedLegsInEveryLanguage: a friend's proposed train in the
// languages the plan gate lacked (uk, bg, el, sk, hr, sl, lt, lv, et, sr)
// gives no leg; the same mail with that language's booking words, or a
// reference, still gives it.
func TestProposedLegsInEveryLanguage(t *testing.T) {
	for _, c := range []struct{ from, subject, body, sign string }{
		{"Oksana <oksana.k@ukr.example>", "Вихідні у Львові",
			"Привіт, Тарасе!\n\nДавай поїдемо на вихідні до Львова? Пропоную такий поїзд:\n\nПоїзд 743 Інтерсіті+\n18.06.2027\nВідправлення: Київ-Пасажирський 07:05\nПрибуття: Львів 12:10\n\nЩо думаєш? Я ще нічого не бронювала, квитки куплю ввечері.\n\nОбіймаю,\nОксана\n",
			"Ваше бронювання підтверджено."},
		{"Ivan <ivan.p@abv.example>", "Варна",
			"Здрасти, Мария!\n\nКакво ще кажеш да хванем влака до Варна? Предлагам този:\n\nВлак 2611\n18.06.2027\nЗаминаване: София 07:00\nПристигане: Варна 14:35\n\nОще нищо не съм резервирал, може би ще купя билетите довечера.\n\nПоздрави,\nИван\n",
			"Вашата резервация е потвърдена."},
		{"Nikos <nikos.p@otenet.example>", "Θεσσαλονίκη",
			"Γεια σου Ελένη,\n\nΤι λες να πάρουμε το τρένο για Θεσσαλονίκη; Προτείνω αυτό:\n\nΤρένο IC 50\n18.06.2027\nΑναχώρηση: Αθήνα 07:20\nΆφιξη: Θεσσαλονίκη 11:34\n\nΔεν έχω κλείσει τίποτα ακόμα, ίσως πάρω τα εισιτήρια απόψε.\n\nΝίκος\n",
			"Η κράτησή σας επιβεβαιώθηκε."},
		{"Peter <peter.h@azet.example>", "Košice",
			"Ahoj Jana,\n\nčo keby sme išli vlakom do Košíc? Navrhujem tento:\n\nVlak IC 601\n18.06.2027\nOdchod: Bratislava hl.st. 06:05\nPríchod: Košice 10:53\n\nČo na to povieš? Ešte som nič nerezervoval, lístky kúpim večer.\n\nPeter\n",
			"Vaša rezervácia je potvrdená."},
		{"Marko <marko.b@net.example>", "Split",
			"Bok Ana,\n\nšto kažeš da uhvatimo vlak za Split? Predlažem ovaj:\n\nVlak IC 521\n18.06.2027\nPolazak: Zagreb Glavni kolodvor 07:30\nDolazak: Split 13:45\n\nJoš ništa nisam rezervirao, možda kupim karte večeras.\n\nMarko\n",
			"Vaša rezervacija je potvrđena."},
		{"Jonas <jonas.k@delfi.example>", "Klaipėda",
			"Labas,\n\ngal važiuojam traukiniu į Klaipėdą? Siūlau šį:\n\nTraukinys 713\n18.06.2027\nIšvykimas: Vilnius 07:10\nAtvykimas: Klaipėda 11:28\n\nDar nieko neužsakiau, bilietus nupirksiu vakare.\n\nJonas\n",
			"Jūsų rezervacija patvirtinta."},
		// Hand-written: Slovenian, Latvian, Estonian, Serbian ("Voz 7401", a
		// train's number after a word that is a coach in Slovenian).
		{"Maja <maja.k@siol.example>", "Ljubljana v soboto?",
			"Živjo Luka,\n\nkaj praviš, da gremo z vlakom v Maribor? Predlagam tega:\n\nVlak ICS 17\n19.06.2027\nOdhod: Ljubljana 08:10\nPrihod: Maribor 09:55\n\nŠe nisem rezervirala, karte kupim jutri. Akcija: 20 % popusta na poletne vozovnice!\n\nMaja\n",
			"Vaša rezervacija je potrjena."},
		{"Anna <anna.b@inbox.example>", "Uz Daugavpili?",
			"Sveiks, Jāni!\n\nKo tu domā, ja brauktu ar vilcienu uz Daugavpili? Iesaku šo:\n\nVilciens 701\n19.06.2027\nAtiešana: Rīga 07:15\nPienākšana: Daugavpils 10:50\n\nVēl neko neesmu rezervējusi, biļetes nopirkšu vakarā.\n\nAnna\n",
			"Jūsu rezervācija ir apstiprināta."},
		{"Mari <mari.t@mail.example>", "Tartu nädalavahetusel",
			"Tere, Kadri!\n\nMis arvad, kui sõidaks rongiga Tartusse? Minu ettepanek:\n\nRong 012\n19.06.2027\nVäljumine: Tallinn 07:05\nSaabumine: Tartu 09:10\n\nMa pole veel broneerinud, piletid ostan õhtul.\n\nMari\n",
			"Teie broneering on kinnitatud."},
		{"Nenad <nenad.j@mts.example>", "Novi Sad?",
			"Ćao Ivana,\n\nšta kažeš da idemo vozom do Novog Sada? Predlažem ovaj:\n\nVoz 7401\n19.06.2027\nPolazak: Beograd Centar 08:00\nDolazak: Novi Sad 08:36\n\nJoš nisam rezervisao, možda kupim karte večeras.\n\nNenad\n",
			"Vaša rezervacija je potvrđena."},
	} {
		if n := proposalLegs(c.from, c.subject, c.body); n != 0 {
			t.Errorf("%s: a plan gave %d legs", c.subject, n)
		}
		for _, sign := range []string{c.sign, "Booking reference: K7XQ2M"} {
			body := strings.Replace(c.body, "\n\n", "\n\n"+sign+"\n\n", 1)
			if proposalLegs(c.from, c.subject, body) == 0 {
				t.Errorf("%s with %q: the booking's leg was lost", c.subject, sign)
			}
		}
	}
}

// TestNewsletterFooterInflected: a timetable newsletter's train, in the
// languages that inflect "unsubscribe from the newsletter" (et, fi, hu,
// lt, lv), gives no leg; without the footer the same text gives it.
func TestNewsletterFooterInflected(t *testing.T) {
	const timetable = "Alates 18.06.2027 / 18.06.2027:\n\nRong 012\nVäljumine: Tallinn 07:05\nSaabumine: Tartu 09:10\n\n"
	for _, c := range []struct{ from, subject, body, footer string }{
		{"Elron <uudised@elron.example>", "Uudised: uus rong Tartusse",
			"Tere!\n\nAlates 18.06.2027 sõidab rong 012 iga päev:\nVäljumine: Tallinn 07:05\nSaabumine: Tartu 09:10\nPileteid saab osta elron.ee.\n\n",
			"Uudiskirjast loobumiseks klõpsa siin."},
		{"Raudtee <info@raudtee.example>", "Suvine sõiduplaan", "Tere!\n\n" + timetable,
			"Kui te ei soovi uudiskirja, saate uudiskirja tellimusest loobuda siin."},
		{"Junaliikenne <uutiset@juna.example>", "Uusi yhteys Tampereelle",
			"Hei!\n\n18.06.2027 alkaen uusi juna:\n\nJuna IC 27\nLähtö: Helsinki 07:05\nSaapuminen: Tampere 08:51\n\n",
			"Voit peruuttaa uutiskirjeen tilauksen tästä."},
		{"Vasút <hirlevel@vasut.example>", "Új vonat Debrecenbe",
			"Kedves Utasunk!\n\n2027.06.18-tól új járat:\n\nVonat IC 617\nIndulás: Budapest-Nyugati 07:23\nÉrkezés: Debrecen 09:58\n\n",
			"A hírlevélről itt tud leiratkozni."},
		{"Geležinkeliai <naujienos@traukiniai.example>", "Naujas traukinys į Klaipėdą",
			"Sveiki!\n\nNuo 2027-06-18 kursuoja naujas traukinys:\n\nTraukinys 713\nIšvykimas: Vilnius 07:10\nAtvykimas: Klaipėda 11:28\n\n",
			"Norėdami atsisakyti naujienlaiškių, spauskite čia."},
		{"Vilciens <jaunumi@vilciens.example>", "Jauns vilciens uz Daugavpili",
			"Labdien!\n\nNo 18.06.2027 kursē jauns vilciens:\n\nVilciens 701\nAtiešana: Rīga 07:15\nPienākšana: Daugavpils 10:50\n\n",
			"Lai atteiktos no jaunumu saņemšanas, spiediet šeit. Atteikties no jaunumiem var jebkurā brīdī."},
	} {
		if n := proposalLegs(c.from, c.subject, c.body+c.footer+"\n"); n != 0 {
			t.Errorf("%s: a newsletter gave %d legs", c.subject, n)
		}
		if proposalLegs(c.from, c.subject, c.body) == 0 {
			t.Errorf("%s: without its footer the leg is not read; the case tests nothing", c.subject)
		}
	}
}
