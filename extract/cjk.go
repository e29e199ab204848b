package extract

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mailnode/extract/lazyregexp"
	"mailnode/extract/places"
)

// Chinese, Japanese and Korean mail (issue 46): the forms of dates,
// clocks and characters these scripts write and the other readers do not
// know. Their words are in extract/lang/data (zh, ja, ko) like every
// language's.

// foldWidth writes the full-width forms of ASCII (U+FF01 to U+FF5E:
// "０７：４５", "ＮＨ２４１", "予約番号：") and the ideographic space as
// ASCII, as NFKC does; every other character is kept, so that kana and
// the currency signs "￥" and "円" mean what they meant. A text without
// them is returned as it is, after a scan for their lead bytes.
func foldWidth(s string) string {
	if !hasWide(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			b.WriteByte(byte(r - 0xFF01 + '!'))
		case r == 0x3000:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// hasWide reports whether s holds a full-width form of ASCII or an
// ideographic space: their UTF-8 starts EF BC or EF BD, and E3 80 80.
func hasWide(s string) bool {
	if strings.Contains(s, "\u3000") {
		return true
	}
	// Every such form starts with the byte EF: IndexByte finds the few
	// places to look at, most text has none.
	for i := strings.IndexByte(s, 0xEF); i >= 0 && i+2 < len(s); {
		if c := s[i+1]; c == 0xBC && s[i+2] >= 0x81 || c == 0xBD && s[i+2] <= 0x9E {
			return true
		}
		j := strings.IndexByte(s[i+1:], 0xEF)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// cjkDateRE is a date as Chinese, Japanese and Korean write it: the year,
// month and day each followed by its sign ("2026年12月18日", "2026년 12월
// 18일"), the year left out ("12月18日(金)", "12월 18일"), or the year of
// Japan's era ("令和8年12月25日", 令和元年 being 2019).
var cjkDateRE = lazyregexp.New(`(?:(\d{4})[ \t]?[年년][ \t]?|令和[ \t]?(\d{1,2}|元)[ \t]?年[ \t]?)?(\d{1,2})[ \t]?[月월][ \t]?(\d{1,2})[ \t]?[日일]`)

// hasCJKMonth reports whether s holds the sign of a month, cjkDateRE's
// quick test.
func hasCJKMonth(s string) bool { return strings.Contains(s, "月") || strings.Contains(s, "월") }

// cjkDates is the dates of cjkDateRE in s.
func cjkDates(s string) []dateMatch {
	if !hasCJKMonth(s) {
		return nil
	}
	var out []dateMatch
	for _, m := range cjkDateRE.FindAllStringSubmatchIndex(s, -1) {
		// "1,600月" or "3120年" are no dates: a digit right before the
		// match belongs to a longer number.
		if m[0] > 0 && isDigitByte(s[m[0]-1]) {
			continue
		}
		mo, _ := strconv.Atoi(s[m[6]:m[7]])
		d, _ := strconv.Atoi(s[m[8]:m[9]])
		dm := dateMatch{m: mo, d: d, start: m[0], end: m[1]}
		switch {
		case m[2] >= 0:
			dm.y, _ = strconv.Atoi(s[m[2]:m[3]])
			dm.hasYear = true
		case m[4] >= 0:
			n, _ := strconv.Atoi(s[m[4]:m[5]]) // "元", the era's first year, is 0 here
			dm.y, dm.hasYear = 2018+max(n, 1), true
		}
		if validDate(max(dm.y, 2000), mo, d) {
			out = append(out, dm)
		}
	}
	return out
}

// cjkMeridiem is the word before a clock that says it is before or after
// noon ("오후 7:45", "下午 7:45", "午後7:45"), or false when the text
// before the clock does not end with one; pm says which.
func cjkMeridiem(before string) (pm, ok bool) {
	before = strings.TrimRight(before, " \t")
	for _, w := range [...]struct {
		word string
		pm   bool
	}{{"오전", false}, {"오후", true}, {"上午", false}, {"下午", true}, {"午前", false}, {"午後", true}, {"晚上", true}, {"早上", false}} {
		if strings.HasSuffix(before, w.word) {
			return w.pm, true
		}
	}
	return false, false
}

// yen is the currency of a "¥" amount: Japan's yen in a text that writes
// kana, China's yuan in one that writes Chinese characters and none;
// "" when the text writes neither, as the sign alone does not tell.
func yen(text string) string {
	han := false
	for _, r := range text {
		switch {
		case r >= 0x3040 && r <= 0x30FF: // hiragana and katakana
			return "JPY"
		case r >= 0x4E00 && r <= 0x9FFF:
			han = true
		}
	}
	if han {
		return "CNY"
	}
	return ""
}

// cjkStopWords are what stands beside a place's name on a Chinese,
// Japanese or Korean leg's line and is no part of it: the words for
// departure and arrival, written before the name or after its clock
// ("出発：東京(羽田) 07:45発", "出发：北京首都国际机场 T3 08:00",
// "출발: 서울 08:00"), longest first.
var cjkStopWords = []string{"出発", "到着", "出发", "出發", "到达", "到達", "抵达", "抵達", "起飞", "起飛", "降落", "출발", "도착", "発", "着"}

// cjkPlaceWords drops from a leg line's words, the clocks and dates taken
// out, those that are no part of a place's name: the words of
// cjkStopWords at either end of a word, a terminal ("T3", "T2"), a
// weekday in parentheses ("(金)", "(토)").
func cjkPlaceWords(ws []string) []string {
	out := ws[:0]
	for _, w := range ws {
		for _, s := range cjkStopWords {
			w = strings.TrimPrefix(w, s)
			w = strings.TrimSuffix(w, s)
		}
		if w == "" || terminalWord(w) || cjkWeekdayAside(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// terminalWord reports whether w is a terminal's short name, "T1" to "T9".
func terminalWord(w string) bool {
	return len(w) == 2 && (w[0] == 'T' || w[0] == 't') && w[1] >= '1' && w[1] <= '9'
}

// cjkWeekdayAside reports whether w is a weekday of one character in
// parentheses, as Japanese and Korean write it after a date.
func cjkWeekdayAside(w string) bool {
	inner, open := strings.CutPrefix(w, "(")
	inner, closed := strings.CutSuffix(inner, ")")
	return open && closed && utf8.RuneCountInString(inner) == 1 && strings.Contains("月火水木金土日월화수목금토일", inner)
}

// hasCJK reports whether s holds a character of three UTF-8 bytes from
// U+3000 on (kana, Chinese characters, Hangul): a quick test before the
// readers of this file.
func hasCJK(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xE3 && s[i] <= 0xED {
			return true
		}
	}
	return false
}

// cjkTrainLabelRE is a train's label in Chinese, Japanese or Korean and
// its service: a category and number ("열차: KTX 017", "车次：G102"), or a
// Japanese service's name and number ("列車名：のぞみ215号").
var cjkTrainLabelRE = lazyregexp.New(`(?:열차(?:[ \t]?번호)?|列車名?|列车|车次|車次)[ \t]*:?[ \t]*((?:\p{Lu}{1,4}[ \t]?)?\d{1,6}|[\p{Hiragana}\p{Katakana}\p{Han}]{1,6}\d{1,4}号)`)

// cjkServiceRE is a train's service written without a label at a line's
// start or before its stops, as Japanese, Korean and Taiwanese rail
// mail lists its legs: a Japanese service's name in kana and its number
// ("かもめ2号", "さくら 545号"; never a coach's "7号車" nor a room's
// "号室"), a Korean category and number ("KTX 101", "KTX-이음 711",
// "ITX-새마을 1003", "무궁화호 1203").
var cjkServiceRE = lazyregexp.New(`(?:^|[^\p{L}\p{N}])([\p{Hiragana}\p{Katakana}ー]{2,10}[ \t]?\d{1,4}号|(?:KTX|ITX|SRT)(?:-\p{Hangul}{1,4})?[ \t]?\d{1,5}|\p{Hangul}{2,4}호[ \t]?\d{1,5})(?:[^\p{L}\p{N}]|$)`)

// cjkTrainIndex is the first train's label of cjkTrainLabelRE in s, or
// else its first service of cjkServiceRE, as FindStringSubmatchIndex.
func cjkTrainIndex(s string) []int {
	if m := cjkTrainLabelRE.FindStringSubmatchIndex(s); m != nil {
		return m
	}
	return cjkServiceRE.FindStringSubmatchIndex(s)
}

// cjkClockStops are the signs of departure or arrival that cjkClockMarks
// blanks after a clock, longest first: Japanese marks a clock with one
// character ("10:24発"), Chinese with one or two ("07:45 發", "08:32到",
// "08:00出发"), Korean with a word ("05:13 출발", "05:58 도착").
var cjkClockStops = []string{"出発", "到着", "出发", "出發", "到达", "到達", "抵达", "抵達", "출발", "도착", "発", "着", "發", "发", "到"}

// cjkClockMarks blanks the sign of departure or arrival written after a
// clock ("10:24発", "12:51着", "07:45 發", "05:13 출발"), so that the clock
// ends its stop as in the other languages ("新大阪 10:24発 → 東京 12:51着");
// the text keeps its length and every other character its place. The
// Japanese signs are blanked right after the clock always; the others,
// which also open words and sentences ("到" is "to", "出发" a label),
// only where the stop ends after them: at the line's end, before an
// arrow, a dash, a bar, a comma or a closing parenthesis.
func cjkClockMarks(s string) string {
	if !hasCJK(s) || !strings.ContainsFunc(s, func(r rune) bool { return strings.ContainsRune("発着發发到出抵출도", r) }) {
		return s
	}
	var b []byte // nil until the first change
	for i := 0; i+3 <= len(s); i++ {
		if i < 4 || !isDigitByte(s[i-1]) || !isDigitByte(s[i-2]) || s[i-3] != ':' {
			continue
		}
		j := i
		if j < len(s) && s[j] == ' ' {
			j++ // "07:45 發"
		}
		for _, w := range cjkClockStops {
			if !strings.HasPrefix(s[j:], w) {
				continue
			}
			end := j + len(w)
			japanese := j == i && (w == "発" || w == "着")
			if !japanese && !cjkStopEnds(s[end:]) {
				break
			}
			if b == nil {
				b = []byte(s)
			}
			// "(10:20発)": the parenthesis closes on the clock.
			if end < len(s) && s[end] == ')' {
				b[i] = ')'
				for k := i + 1; k <= end; k++ {
					b[k] = ' '
				}
			} else {
				for k := i; k < end; k++ {
					b[k] = ' '
				}
			}
			break
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// cjkStopEnds reports whether rest, the text after a stop's sign, ends
// the stop: nothing on the line, or an arrow, a dash, a bar, a comma or
// a closing parenthesis after spaces.
func cjkStopEnds(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" || rest[0] == '\n' || rest[0] == '\r' {
		return true
	}
	for _, p := range []string{"→", "->", "-", "–", "—", "|", ",", "，", "、", ")", "）"} {
		if strings.HasPrefix(rest, p) {
			return true
		}
	}
	return false
}

// scriptCountry is the country whose zone a text in Korean, Japanese,
// Chinese, Greek, Ukrainian or Serbian is read in when nothing else
// places it: Hangul is Korea's, kana Japan's, Chinese characters alone
// China's (Taiwan's and Hong Kong's clocks keep its offset); Greek
// words Greece's (Cyprus keeps its offset), three letters of words of two
// Greek letters or more, never a unit's symbol; the letters only Ukrainian
// writes (ї, є, ґ) Ukraine's; the Cyrillic letters Serbian and
// Macedonian write and Russian does not (ђ, ћ, џ, љ, њ, ј) Serbia's,
// whose clock North Macedonia's, Bosnia's and Montenegro's keep. A
// Russian or Bulgarian text has no such letter: Russia has many zones,
// and Bulgarian is told by its words (languageCountry). "" for a text
// in none of them. Its first four kilobytes are looked at.
func scriptCountry(text string) string {
	if len(text) > 4096 {
		text = text[:4096]
	}
	han := false
	other, greek, run := "", 0, 0
	for _, r := range text {
		// Greek letters count in a word of two or more of them only: "μ"
		// or "Ω" beside Latin letters or digits is a unit ("10 kΩ", "5
		// μm", "2 μg") in any text, however many there are.
		if r >= 0x391 && r <= 0x3CE {
			run++
		} else {
			run = 0
		}
		switch {
		case r >= 0xAC00 && r <= 0xD7A3: // Hangul syllables
			return "KR"
		case r >= 0x3040 && r <= 0x30FF:
			return "JP"
		case r >= 0x4E00 && r <= 0x9FFF:
			han = true
		case other != "" || r < 0x370:
		case run > 0: // Greek letters, with their tonos
			if run == 2 {
				greek++ // the word's first letter
			}
			if run >= 2 {
				if greek++; greek >= 3 {
					other = "GR"
				}
			}
		case strings.ContainsRune("їЇєЄґҐ", r):
			other = "UA"
		case strings.ContainsRune("ђЂћЋџЏљЉњЊјЈ", r):
			other = "RS"
		}
	}
	if han {
		return "CN"
	}
	return other
}

// cjkRailRE is a leg as China's rail booking system writes it in one
// sentence: the day and clock it leaves ("2026年12月20日08:00开", the
// year and the word for "leaves" left out in older mail: "04月29日
// 19:36"), the two stations apart by a dash, a tilde, a word for "to"
// ("至", "到") or the dash typed as "一" ("上海一郑州"), then the train
// ("G102次列车"); the arrival is not given. The first station is the
// shortest that leaves a second: "一" inside a name is read on.
var cjkRailRE = lazyregexp.New(`((?:\d{4}年)?\d{1,2}月\d{1,2}日)[ \t]*(\d{1,2}:\d{2})[开開]?[，,、][ \t]*([^，,、\s\-－—–~～]{1,20}?)(?:[\-－—–~～至到]|一)([^，,、\s\-－—–~～]{1,20})[，,、][ \t]*([A-Z]?\d{1,5})[次车]`)

// cjkRailSoldRE is a ticket as 12306's purchase notice writes it: the
// day, the train and its coach and seat, then the station and the clock
// it leaves ("您已购5月1日G1371次列车2车12A号，北京南站09:05开"); no arrival.
var cjkRailSoldRE = lazyregexp.New(`((?:\d{4}年)?\d{1,2}月\d{1,2}日)[ \t]*([A-Z]?\d{1,5})次(?:列车|列車)?[^，,。\n]{0,16}?[，,][ \t]*([^，,、。\s\d]{1,20}?)[ \t]*(\d{1,2}:\d{2})[开開]`)

// cjkRailSentences reads the legs of cjkRailRE in text, else those of
// cjkRailSoldRE, which name the station a train leaves from alone.
func (c *msgContext) cjkRailSentences(text string) []*Segment {
	if !strings.Contains(text, "次") || !strings.Contains(text, "月") {
		return nil
	}
	if out := c.cjkRailLegs(text, cjkRailRE, railGroups{day: 1, clock: 2, from: 3, to: 4, number: 5}); len(out) > 0 {
		return out
	}
	return c.cjkRailLegs(text, cjkRailSoldRE, railGroups{day: 1, number: 2, from: 3, clock: 4})
}

// railGroups are the groups of a rail sentence's expression: the day,
// the clock it leaves, its stations (to 0 when it names none) and the
// train.
type railGroups struct{ day, clock, from, to, number int }

// cjkRailLegs reads the legs of re in text by its groups g, one for each
// train and day however many travellers' lines repeat it.
func (c *msgContext) cjkRailLegs(text string, re *lazyregexp.Regexp, g railGroups) []*Segment {
	var out []*Segment
	seen := map[string]bool{}
	for _, m := range re.FindAllStringSubmatch(text, 8) {
		ds, cs := cjkDates(m[g.day]), findClocks(m[g.clock])
		if len(ds) != 1 || len(cs) != 1 || seen[m[g.number]+m[g.day]] {
			continue
		}
		seen[m[g.number]+m[g.day]] = true
		d := ds[0].withYear(c.ref)
		to := m[g.from]
		if g.to > 0 {
			to = m[g.to]
		}
		fz, _ := c.legZones(m[g.from], to, at(d, &cs[0]), at(d, nil))
		seg := &Segment{Type: KindTrain, Status: StatusConfirmed, Number: m[g.number],
			From: &Place{Name: m[g.from]}, Depart: resolve(at(d, &cs[0]), fz, c.dateLoc)}
		if g.to > 0 {
			seg.To = &Place{Name: m[g.to]}
		}
		out = append(out, seg)
	}
	return out
}

// airportLeg reports whether a leg that names no train goes from one
// airport to another ("関西 08:15発 → 那覇 10:40着" in an airline's sale):
// Japanese and Chinese mark a flight's clocks as a train's, and airports
// are no stations (review 4).
func airportLeg(l *Segment) bool {
	if l.Number != "" || l.From == nil || l.To == nil {
		return false
	}
	_, a := places.AirportByName(l.From.Name)
	_, b := places.AirportByName(l.To.Name)
	return a && b
}

// scriptBreak reports whether text changes at i from a character of these
// scripts to an ASCII letter or digit: two words, with no space between.
func scriptBreak(text string, i int) bool {
	if i <= 0 || i >= len(text) || text[i] >= utf8.RuneSelf {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return r >= 0x3000
}

// cjkWeekdayNext reports whether rest, the text after a date, starts with
// a weekday of one character in parentheses ("12/18(金)", "1/9 (토)"): a
// slashed date without its year, month first, as Japan and Korea write it.
func cjkWeekdayNext(rest string) bool {
	rest = strings.TrimLeft(rest, " ")
	if !strings.HasPrefix(rest, "(") {
		return false
	}
	end := strings.IndexByte(rest, ')')
	return end > 0 && cjkWeekdayAside(rest[:end+1])
}

// bracketLabels writes a label set in brackets at a line's start, its
// value after it, as the label and a colon ("【オーダーID】0434429495",
// "[運送会社] 佐川急便" as "運送会社: 佐川急便"), as Japanese shops set their
// labels, so that the label rules read them as any other. A bracket alone
// on its line heads a section; one holding a digit, a colon or a slash
// ("[1]", "[image: logo]") or before a link's parenthesis is none.
func bracketLabels(text string) string {
	if !strings.Contains(text, "【") && !strings.Contains(text, "\n[") && !strings.HasPrefix(text, "[") {
		return text
	}
	lines := strings.Split(text, "\n")
	changed := false
	for i, ln := range lines {
		t := strings.TrimLeft(ln, " \t")
		closing := ""
		switch {
		case strings.HasPrefix(t, "【"):
			closing = "】"
		case strings.HasPrefix(t, "["):
			closing = "]"
		default:
			continue
		}
		_, open := utf8.DecodeRuneInString(t)
		j := strings.Index(t, closing)
		if j < 0 {
			continue
		}
		label, value := t[open:j], strings.TrimSpace(t[j+len(closing):])
		if label == "" || value == "" || utf8.RuneCountInString(label) > 16 || value[0] == '(' || value[0] == '[' ||
			strings.ContainsAny(label, ":：/0123456789[]【】") {
			continue
		}
		lines[i] = ln[:len(ln)-len(t)] + label + ": " + value
		changed = true
	}
	if !changed {
		return text
	}
	return strings.Join(lines, "\n")
}

// cjkFlightRE is a flight as Chinese agencies' booking notices write it
// in one sentence: the day, the number and "航班", the airport and the
// clock it takes off ("起飞"), the clock it lands ("到达") and the
// airport, terminals after the airports' names ("您已预订5月2日CA4102航班，
// 北京首都T2 08:30起飞，11:05到达成都天府T1").
var cjkFlightRE = lazyregexp.New(`((?:\d{4}年)?\d{1,2}月\d{1,2}日)[ \t]*([A-Z][A-Z0-9]|[0-9][A-Z])[ \t]?(\d{1,4})[ \t]*航班[，,][ \t]*([^，,、。\s\d]{2,16}?)(?:T\d)?[ \t]*(\d{1,2}:\d{2})[ \t]*起飞[，,][ \t]*(\d{1,2}:\d{2})[ \t]*(?:到达|抵达)([^，,、。\s\d]{2,16}?)(?:T\d)?[，,。]`)

// cjkFlightSentences reads the flights of cjkFlightRE in text whose
// airports both resolve, one for each number and day.
func (c *msgContext) cjkFlightSentences(text string) []*Segment {
	if !strings.Contains(text, "航班") {
		return nil
	}
	var out []*Segment
	seen := map[string]bool{}
	for _, m := range cjkFlightRE.FindAllStringSubmatch(text, 8) {
		ds, dc, ac := cjkDates(m[1]), findClocks(m[5]), findClocks(m[6])
		from, okf := places.AirportByName(m[4])
		to, okt := places.AirportByName(m[7])
		if len(ds) != 1 || len(dc) != 1 || len(ac) != 1 || !okf || !okt || seen[m[2]+m[3]+m[1]] {
			continue
		}
		seen[m[2]+m[3]+m[1]] = true
		d := ds[0].withYear(c.ref)
		fp, tp := &Place{Name: m[4], Code: from}, &Place{Name: m[7], Code: to}
		out = append(out, &Segment{Type: KindFlight, Status: StatusConfirmed, Number: m[2] + " " + strings.TrimLeft(m[3], "0"),
			From: fp, To: tp, Depart: resolve(at(d, &dc[0]), c.airportZone(fp), c.dateLoc), Arrive: resolve(at(d, &ac[0]), c.airportZone(tp), c.dateLoc)})
	}
	return out
}

// cjkStayRE is a stay as Chinese agencies' booking notices write it: the
// day and "入住", then the day and "离店" ("5月2日入住，5月4日离店"), the
// words after the days; cjkHotelNameRE the hotel booked ("您已成功预订
// 成都望江宾馆高级大床房1间2晚"), its name ending in a word for a hotel.
var (
	cjkStayRE      = lazyregexp.New(`((?:\d{4}年)?\d{1,2}月\d{1,2}日)[ \t]*(?:入住|入住日)[，,、][ \t]*((?:\d{4}年)?\d{1,2}月\d{1,2}日)[ \t]*(?:离店|離店|退房)`)
	cjkHotelNameRE = lazyregexp.New(`(?:预订|預訂|预定|預定)(?:了)?([^，,、。\s\d]{2,24}?(?:酒店|宾馆|賓館|饭店|飯店|旅馆|旅館|民宿|客栈|客棧|公寓))`)
)

// cjkStaySentence reads the stay of cjkStayRE in text, the hotel's name
// by cjkHotelNameRE, the booking by its label; nil when none.
func (c *msgContext) cjkStaySentence(text string) *Segment {
	if !strings.Contains(text, "入住") {
		return nil
	}
	m := cjkStayRE.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	in, out := cjkDates(m[1]), cjkDates(m[2])
	if len(in) != 1 || len(out) != 1 {
		return nil
	}
	d1 := in[0].withYear(c.ref)
	d2 := out[0].withYear(c.ref)
	s := &Segment{Type: KindHotel, Status: StatusConfirmed, Reservation: c.bookingRef(text),
		CheckIn: resolve(at(d1, nil), zoneHint{}, c.dateLoc), CheckOut: resolve(at(d2, nil), zoneHint{}, c.dateLoc)}
	if n := cjkHotelNameRE.FindStringSubmatch(text); n != nil {
		s.Hotel = n[1]
	}
	if !s.CheckOut.After(s.CheckIn.Time) {
		return nil
	}
	return s
}
