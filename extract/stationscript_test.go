package extract_test

import (
	"testing"
	"time"

	"mailnode/extract"
)

// TestStationZoneByScript: stations no table places, written in a script
// one country alone writes its places in, keep that country's clock
// (Hangul: Korea's, kana: Japan's), whatever the mail's Date header says;
// Chinese characters alone keep the mail's.
func TestStationZoneByScript(t *testing.T) {
	for _, tt := range []struct {
		name, body, wantDep string
	}{
		{"ko, Hangul stations", "예약번호: 8127-4410-2233\nKTX 101\n2027년 3월 14일\n서울 06:00 → 부산 08:39\n5호차 12A\n", "2027-03-14T06:00:00+09:00"},
		{"ja, a station in katakana", "予約番号：QW7ZTP4\n列車 のぞみ 21号\n2027年3月14日\nシンアオモリ 06:00 → ハチノヘ 06:40\n", "2027-03-14T06:00:00+09:00"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range mailFacts("Rail <tickets@rail.example>", "Ticket", tt.body, time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC)) {
				if f.Kind == extract.KindTrain && f.Segment != nil && f.Segment.Depart != nil {
					got = append(got, f.Segment.Depart.Format(time.RFC3339))
				}
			}
			if len(got) != 1 || got[0] != tt.wantDep {
				t.Errorf("departures = %v, want [%s]", got, tt.wantDep)
			}
		})
	}
}
