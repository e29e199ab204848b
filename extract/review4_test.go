package extract_test

// Outside review, fourth round: a hotel tip beside an airline's flights,
// and CJK sales, chats and examples, are no bookings.

import (
	"testing"

	"mailnode/extract"
)

// review4Mail reads a plain-text mail dated at +01:00 (review4Plain).
func review4Mail(from, subject, body string) extract.Result {
	res, _ := review4Extract(review4Plain(from, subject, body))
	return res
}

// TestPackageStayNeedsItsOwnBooking: a stay under a heading beside an
// airline's flights, with no number of its own, is no booked stay when
// the mail's only number is the flights' record locator.
func TestPackageStayNeedsItsOwnBooking(t *testing.T) {
	res := review4Mail("Lufthansa <booking@lufthansa.com>", "Your booking confirmation XK4R7Q",
		"Dear Alex,\n\nBooking code: XK4R7Q\n\nLH 400  Frankfurt (FRA) 14 Dec 2026 10:05  ->  New York JFK (JFK) 14 Dec 2026 13:00\n\n"+
			"Hotel tip from other travellers\nThe Plaza Hotel\nCheck-in: 14 Dec 2026\nCheck-out: 18 Dec 2026\nRated 4.7 by 2,000 guests.\n")
	flights := 0
	for _, f := range res.Facts {
		if f.Segment == nil {
			continue
		}
		if f.Segment.Type == "hotel" {
			t.Errorf("a hotel tip gave a %s stay %q under %q", f.Segment.Status, f.Segment.Hotel, f.Segment.Reservation)
		} else {
			flights++
		}
	}
	if flights == 0 {
		t.Errorf("the flight was lost: %+v", res.Facts)
	}
}

// TestCJKLegsNeedABooking: an airline's sale ("今すぐ予約", its legs from
// airport to airport), a friend's chat about a flight, and a rail
// notice's example ("示例：") give no legs: the CJK readers obey the
// unbooked and example words as the others do, and airports are no
// stations.
func TestCJKLegsNeedABooking(t *testing.T) {
	for _, m := range [][3]string{
		{"ANA <news@ana.co.jp>", "【ANA】冬のセール 航空券",
			"冬のセール開催中！\n\n12月18日(金)\n関西 08:15発 → 那覇 10:40着\n羽田 09:00発 → 札幌 10:35着\n\n今すぐ予約\n"},
		{"Friend <tanaka@gmail.com>", "来週の旅行",
			"こんにちは、\n来週の便はこれにしようかと思っています。\n12月18日(金)\n関西 08:15発 → 那覇 10:40着\nどう思う？\n"},
		{"12306 <12306@rails.com.cn>", "温馨提示 列车时刻调整",
			"尊敬的旅客：示例：2026年12月20日08:00开，北京南站-上海虹桥站，G102次列车，时刻调整，请留意。\n"},
	} {
		for _, f := range review4Mail(m[0], m[1], m[2]).Facts {
			if f.Segment != nil {
				t.Errorf("%s: a %s %s %s -> %s", m[1], f.Segment.Status, f.Segment.Type, f.Segment.From.Name, f.Segment.To.Name)
			}
		}
	}
}
