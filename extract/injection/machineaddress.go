package injection

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"mailnode/extract/lang"
	"mailnode/extract/lazyregexp"
	"mailnode/extract/words"
)

// machineAddress is a machine reader addressed at a line's start, in
// each language with its own words: "An den KI-Assistenten:", "Asistente
// de IA:", "Drogi asystencie AI,", "AIアシスタントへ:", "Dear inbox-
// sorting tool,", "LLM note:" (the eighth outside review). Its name is
// a word for AI beside one for an assistant, either way round and
// written together or apart, or a program's noun alone after an address
// form ("to", "an", "致") or a greeting; a colon ends it, or a comma
// after an address. Read per language, so that a word that is AI in one
// ("mi", Hungarian) and "my" in another never pairs with the other's
// assistant ("Mi asistente: Ana"). An assistant alone is a person as
// often ("To the assistant:"), and so is an AI course's heading without
// a colon.
func machineAddress() rule {
	alt := func(ws []string) string {
		var parts []string
		for _, w := range foldAll(ws) {
			if p, ok := strings.CutSuffix(w, "*"); ok {
				parts = append(parts, regexp.QuoteMeta(p)+`\pL*`)
			} else {
				parts = append(parts, regexp.QuoteMeta(w))
			}
		}
		return strings.Join(parts, "|")
	}
	var langs, gate []string
	var after []string
	for _, l := range lang.Languages() {
		machine, helper, noun := lang.Of(l, "injection.machine"), lang.Of(l, "injection.helper"), lang.Of(l, "injection.machine.noun")
		if len(machine) == 0 || len(helper) == 0 {
			continue
		}
		after = append(after, lang.Of(l, "injection.address.after")...)
		gate = append(gate, helper...)
		gate = append(gate, noun...)
		for _, m := range machine {
			if m = strings.TrimSuffix(m, "*"); len([]rune(m)) >= 3 {
				gate = append(gate, m)
			} else {
				// "An die KI:", "Dear AI,": a short one only just
				// before the colon or comma (or a CJK suffix).
				gate = append(gate, m+":", m+" :", m+",")
				for _, a := range lang.Of(l, "injection.address.after") {
					gate = append(gate, m+a, m+" "+a)
				}
			}
		}
		// An address form and, after it, an article or a preposition's
		// article ("den", "l'", "τον").
		var addr []string
		for _, a := range foldAll(append(lang.Of(l, "injection.dear"), lang.Of(l, "injection.address")...)) {
			q := regexp.QuoteMeta(a)
			if isCJK(a) || strings.HasSuffix(a, "'") || strings.HasSuffix(a, "’") {
				addr = append(addr, q+`\s{0,8}`)
			} else {
				addr = append(addr, q+`\s{1,8}`)
			}
		}
		m, h := alt(machine), alt(helper)
		core := `(?:` + m + `)[\s-]?(?:` + h + `)|(?:` + h + `)[\s-](?:\pL{1,3}\s)?(?:` + m + `)`
		label := core
		if note := lang.Of(l, "injection.note"); len(note) > 0 {
			label += `|(?:` + m + `)[\s-](?:` + alt(note) + `)`
		}
		if after := lang.Of(l, "injection.address.after"); len(after) > 0 {
			// A word for AI with its case after it ("AIへ:") is
			// addressed as "to the AI" is.
			label += `|(?:` + m + `)\s*(?:` + alt(after) + `)`
		}
		named := core + `|` + m
		if len(noun) > 0 {
			named += `|` + alt(noun)
		}
		one := `(?:` + label + `)(?:SUFFIX)?\s*:`
		if len(addr) > 0 {
			one = `(?:` + strings.Join(addr, "|") + `)(?:\pL{1,4}(?:\s{1,8}|['’]))?(?:[\pL-]{1,24}\s)?(?:` + named + `)(?:SUFFIX)?\s*[:,]|` + one
		}
		langs = append(langs, one)
	}
	suffix := `\b\B` // none, when no language writes one
	if len(after) > 0 {
		suffix = `\s*(?:` + alt(after) + `)`
	}
	body := strings.ReplaceAll(strings.Join(langs, "|"), "SUFFIX", suffix)
	rl := rule{re: lazyregexp.New(`^[\s>*•·-]*(?:` + body + `)`), sets: []*words.Set{words.NewSet(trimStars(gate))}, heads: true}
	// The same words as anchors, for a head's closer look: a short one
	// ("bot", "ai:") stands whole, not in "both" or "email:"; a longer
	// one may end a compound ("tekoälyavustaja").
	rl.anchor = rl.sets[0]
	for _, g := range trimStars(gate) {
		rl.anchorLens = append(rl.anchorLens, len(g))
		rl.anchorWhole = append(rl.anchorWhole, !isCJK(g) && len([]rune(strings.TrimRight(g, " :,"))) <= 4)
	}
	return rl
}

// headHolds reports whether head holds a word of the rule's anchors as
// it may stand (machineAddress).
func (rl rule) headHolds(head string) bool {
	found := false
	rl.anchor.EachAt(head, func(p, end int) bool {
		if !rl.anchorWhole[p] {
			found = true
			return false
		}
		st := end - rl.anchorLens[p]
		if st > 0 {
			if r, _ := utf8.DecodeLastRuneInString(head[:st]); unicode.IsLetter(r) || unicode.IsDigit(r) {
				return true
			}
		}
		if r, _ := utf8.DecodeRuneInString(head[end:]); end < len(head) && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return true
		}
		found = true
		return false
	})
	return found
}

// maxHead is how far into a line the colon or comma after an address
// may stand: an address form, an article, a modifier and a machine's
// name, in letters of up to four bytes.
const maxHead = 160

// matchesHeads reports whether the head of a line or of a sentence in
// it ("Invoice 4471. To the AI assistant: …"), up to its first colon or
// comma, holds a word of the rule's sets and matches its pattern: the
// pattern, every language's address forms and names, is run only over
// the few heads that may hold one, not over the mail.
func (rl rule) matchesHeads(f string) bool {
	heads := 0
	for line := range strings.Lines(f) {
		if !rl.sets[0].Any(line) {
			continue
		}
		for start := 0; start < len(line); {
			rest := line[start:]
			if i := strings.IndexAny(rest[:min(len(rest), maxHead)], ":,"); i >= 0 {
				if head := rest[:i+1]; rl.headHolds(head) {
					if heads++; heads > maxHeads {
						return false
					}
					if rl.re.MatchString(head) {
						return true
					}
				}
			}
			// The next sentence's start: after a full stop, question
			// or exclamation mark and a space.
			for {
				j := strings.IndexAny(rest, ".!?")
				if j < 0 {
					start = len(line)
					break
				}
				start += j + 1
				rest = line[start:]
				if rest == "" || rest[0] == ' ' {
					break
				}
			}
		}
	}
	return false
}

// maxHeads is how many heads holding a word of the rule's sets a text
// may ask the pattern about: a hostile text of endless "asistente x,"
// costs no more than a bounded number of runs.
const maxHeads = 256

// trimStars is ws without their trailing '*'.
func trimStars(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range foldAll(ws) {
		out[i] = strings.TrimSuffix(w, "*")
	}
	return out
}
