package extract

import "testing"

func TestJoinBrokenRows(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"cells of two lines, the last one's too",
			"Volo\tPartenza\tArrivo\nAZ 1781\tMilano Linate (LIN)\n12/10/2027 07:00\tNapoli (NAP)\n12/10/2027 08:15\nAZ 1786\tNapoli (NAP)\n15/10/2027 19:40\tMilano Linate (LIN)\n15/10/2027 20:55\nPasseggero: Giulia Bianchi",
			"Volo\tPartenza\tArrivo\nAZ 1781\tMilano Linate (LIN) 12/10/2027 07:00\tNapoli (NAP) 12/10/2027 08:15\nAZ 1786\tNapoli (NAP) 15/10/2027 19:40\tMilano Linate (LIN) 15/10/2027 20:55\nPasseggero: Giulia Bianchi"},
		{"the first cell broken, a promotion after the row stays apart",
			"Vertrek\tAankomst\tTrein\nAmsterdam Centraal\nza 18-12-2027 09:16\tAntwerpen-Centraal\nza 18-12-2027 10:32\tEC 9227\nTip: reserveer nu je terugreis en ontvang 15% korting tot 31-12-2027.",
			"Vertrek\tAankomst\tTrein\nAmsterdam Centraal za 18-12-2027 09:16\tAntwerpen-Centraal za 18-12-2027 10:32\tEC 9227\nTip: reserveer nu je terugreis en ontvang 15% korting tot 31-12-2027."},
		{"four cells, one broken",
			"Flug\tDatum\tAbflug\tAnkunft\nEW 9580\t17.02.2028\tKöln/Bonn (CGN)\n08:30\tWien (VIE)\n10:00\nGute Reise!",
			"Flug\tDatum\tAbflug\tAnkunft\nEW 9580\t17.02.2028\tKöln/Bonn (CGN) 08:30\tWien (VIE) 10:00\nGute Reise!"},
		// Whole rows, a header with digits, two columns, tabs that
		// overshoot or a blank line inside a row: left as they are.
		{"whole rows", "Flug\tVon\tNach\nLH 400\tFRA\tJFK\nLH 401\tJFK\tFRA", "Flug\tVon\tNach\nLH 400\tFRA\tJFK\nLH 401\tJFK\tFRA"},
		{"no header", "LH 400\tFRA\tJFK\n08:30\n10:00", "LH 400\tFRA\tJFK\n08:30\n10:00"},
		{"two columns", "Total\tDue\n12.00\n30 May", "Total\tDue\n12.00\n30 May"},
		{"overshoot", "A\tB\tC\nx\ny\tz\tw\tv", "A\tB\tC\nx\ny\tz\tw\tv"},
		{"blank inside", "A\tB\tC\nx\ty\n\nz", "A\tB\tC\nx\ty\n\nz"},
		{"a heading over the next table", "Flight\tOrigin\tDestination\nUA 837\tSFO\tNRT\nReturn: Sunday, August 29, 2027\nFlight\tOrigin\tDestination\nUA 838\tNRT\tSFO",
			"Flight\tOrigin\tDestination\nUA 837\tSFO\tNRT\nReturn: Sunday, August 29, 2027\nFlight\tOrigin\tDestination\nUA 838\tNRT\tSFO"},
		{"no tab", "Flight LH 400\n08:30", "Flight LH 400\n08:30"},
	} {
		if got := joinBrokenRows(c.in); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
