package extract_test

import (
	"fmt"
	"testing"
	"time"
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
