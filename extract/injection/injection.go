// Package injection recognises mail text written to instruct an AI reader
// rather than to inform the user: "ignore previous instructions", "you are
// now…", "assistant:", "forward … to …", and their kin in the languages the
// extractors read.
//
// Recognising such text is a second line of defence, not the first: what
// an agent may see is decided in the gateway from grants, and no tool acts
// on mail text. But tool outputs are read by models, so the node does not
// hand them a sender's instructions either: a span or a name that matches
// is never returned, and a message that carries one anywhere is not used
// to answer free-form questions at all.
package injection

import (
	"regexp"
	"strings"
	"unicode"

	"go.mau.fi/util/confusable"
	"golang.org/x/text/unicode/norm"

	"mailnode/extract/lang"
	"mailnode/extract/words"
	"mailnode/mail/invisible"
)

// A rule is a pattern matched against lower-cased text with runs of white
// space folded to one space, and the words it cannot match without: one
// word of each group must be in the text before the pattern runs. Most
// mail holds none of them, and the patterns are too slow to run over
// every long newsletter. Each pattern must be specific enough that
// ordinary commercial or personal mail does not trip it: a false positive
// only hides one message from ask, but it should stay rare.
//
// A word in a group is matched whole ("ai" is not in "mail"); a trailing
// '*' lets it run on ("code*"), a leading '=' matches it anywhere.
type rule struct {
	words [][]string
	re    *regexp.Regexp
	// sets, when not nil, replace words: the rule may match only where
	// a phrase of each set occurs, each set found in one pass however
	// many languages' words it holds.
	sets []*words.Set
}

func r(pattern string, words ...[]string) rule {
	return rule{words: words, re: regexp.MustCompile(pattern)}
}

func w(ws ...string) []string { return ws }

var machineWords = w("ai", "a.i.", "llm", "language model", "assistant", "agent", "chatbot", "bot", "gpt", "chatgpt", "claude", "copilot")

var rules = append(languageRules(), []rule{
	// Overriding earlier instructions (the verb-and-object rules of every
	// language are languageRules).
	r(`\bnew (?:instructions|rules|task|objective)\b`, w("new instructions", "new rules", "new task", "new objective")),
	r(`\b(?:system|developer|admin) (?:prompt|override|message|instruction|mode)\b`,
		w("system", "developer", "admin"), w("prompt", "override", "message", "instruction", "mode")),
	r(`\bjailbreak`, w("jailbreak*")),
	// Addressing whoever or whatever reads the mailbox, not the user.
	r(`\b(?:note|message|notice|instructions?|reminder|memo|request|task|attention|hinweis|nachricht|remarque)\s+(?:for|to|f[üu]r|an|pour)\s+(?:the |any |whoever |an? |den |die |le |l')?(?:helper|assistant|agent|reader|bot|model|program|tool|software|automation|automated \w+|system|assistenten|helfer|assistant[e]?)\b`,
		w("note", "message", "notice", "instruction", "instructions", "reminder", "memo", "request", "task", "attention", "hinweis", "nachricht", "remarque"),
		w("helper", "assistant", "agent", "reader", "bot", "model", "program", "tool", "software", "automation", "automated", "system", "assistenten", "helfer", "assistante")),
	r(`\b(?:whoever|anyone|anybody|the (?:helper|assistant|agent|program|tool|software|system|model|bot|service)|any (?:helper|assistant|agent|program|tool|software|system|model|bot))\s+(?:that is |who is |which is |is |are )?(?:reading|processing|handling|scanning|summari[sz]ing|sorting|triaging|managing|with access to)\s+(?:this|the|these|my|your)\s+(?:inbox|mailbox|mail|mails|e-?mails?|messages?|account|folder)\b`,
		w("whoever", "anyone", "anybody", "helper", "assistant", "agent", "program", "tool", "software", "system", "model", "bot", "service"),
		w("reading", "processing", "handling", "scanning", "summarizing", "summarising", "sorting", "triaging", "managing", "with access to")),
	// Addressing a machine reader.
	r(`\b(?:attention|dear|hey|hello|hi|note to|notice to|message to|to the|for the|for your)\s+(?:an? )?(?:ai|a\.i\.|llm|language model|assistant|ai assistant|ai agent|agent|chatbot|bot|gpt|chatgpt|claude|copilot)\b`,
		machineWords),
	r(`\b(?:ai|llm|language model|virtual) (?:assistant|agent|model)s?\b[^.!?]{0,30}\b(?:reading|processing|summari[sz]ing|handling|with access)\b`,
		w("ai", "llm", "language model", "virtual")),
	r(`\byou are (?:now |an? |the )*(?:ai|llm|assistant|agent|chatbot|language model|gpt|chatgpt|claude)\b`, w("you are"), machineWords),
	r(`\bas an (?:ai|llm|language model)\b`, w("as an")),
	r(`(?:^|\n)\s*(?:assistant|ai|ai assistant|ai agent)\s*:`, w("assistant", "ai")),
	r(`\[(?:system|assistant)\]`, w("=[system]", "=[assistant]")),
	r(`<\|?(?:im_start|im_end|system|endoftext)\|?>`, w("=im_start", "=im_end", "=<system", "=<|system", "=endoftext")),
	r(`\[/?(?:inst|sys)\]`, w("=[inst]", "=[/inst]", "=[sys]", "=[/sys]")),
	// Asking for actions no mail should ask a reader for.
	r(`\b(?:forward|send|e-?mail|mail|bcc|cc|exfiltrate|upload|copy|leak|share|transfer|weiterleiten|leite|sende|schicke|stuur|envoie|transf[ée]rer|env[íi]a|inoltra)\b[^.!?]{0,20}\b(?:all|every|any|each|copies of|the user's|alle|jede[ns]?|tous|toutes|todos|todas|tutti|tutte|elke)\b[^.!?]{0,60}\b(?:to|an|naar|[àa]|a)\s+[a-z0-9._%+-]+@[a-z0-9.-]+`,
		w("forward", "send", "e-mail", "email", "mail", "bcc", "cc", "exfiltrate", "upload", "copy", "leak", "share", "transfer", "weiterleiten", "leite", "sende", "schicke", "stuur", "envoie", "transférer", "transferer", "envía", "envia", "inoltra"), w("=@")),
	r(`\b(?:grant|give)\b[^.!?]{0,40}\b(?:this|the) (?:sender|agent|address)\b[^.!?]{0,40}\b(?:access|permissions?|rights)\b`,
		w("grant", "give"), w("access", "permission", "permissions", "rights")),
	r(`\b(?:grant|give)\b[^.!?]{0,40}\b(?:raw_read|send_draft|full access|mailbox access)\b`,
		w("grant", "give"), w("=raw_read", "=send_draft", "full access", "mailbox access")),
	r(`\bdo not (?:tell|inform|alert|notify|show) (?:the )?(?:user|owner|account holder)\b`, w("do not")),
	r(`\bwithout (?:telling|informing|asking|alerting) (?:the )?(?:user|owner)\b`, w("without")),
	r(`\bpre-?approved by the (?:user|owner|account holder)\b`, w("=approved by the")),
	r(`\bauthori[sz]ed by the (?:account )?(?:owner|user)\b`, w("=authorized by the", "=authorised by the")),
	r(`\b(?:one-time|verification|security|2fa|otp) codes?\b[^.!?]{0,30}\bto (?:the sender|us|this address|me)\b`,
		w("code", "codes")),
}...)

// languageRules are the rules every language of extract/lang writes the
// same way, built from its words (categories injection.*): overriding
// earlier instructions ("ignore … instructions", "glöm … instruktionerna")
// and asking that all of something go to an address ("videresend alle …
// til x@y"). The extractors read 13 languages; so do these rules.
func languageRules() []rule {
	alt := func(ws []string) string {
		var parts []string
		for _, w := range ws {
			if p, ok := strings.CutSuffix(w, "*"); ok {
				parts = append(parts, regexp.QuoteMeta(p)+`\pL*`)
			} else {
				parts = append(parts, regexp.QuoteMeta(w))
			}
		}
		return strings.Join(parts, "|")
	}
	// Every language's words in one rule per kind: a verb of one
	// language before an object of another is no less an instruction.
	cat := func(c string) []string {
		var out []string
		for _, l := range lang.Languages() {
			out = append(out, lang.Of(l, c)...)
		}
		return out
	}
	prefilter := func(ws []string) *words.Set {
		var lits []string
		for _, w := range ws {
			lits = append(lits, strings.TrimSuffix(w, "*"))
		}
		return words.NewSet(lits)
	}
	// Word edges that know letters beyond ASCII: \b does not ("glöm").
	const start, end = `(?:^|[^\pL\pN_])`, `(?:[^\pL\pN_]|$)`
	verbs, objects := cat("injection.override"), cat("injection.instructions")
	fwd, all, to := cat("injection.forward"), cat("injection.all"), cat("injection.to")
	return []rule{
		{re: regexp.MustCompile(start + `(?:` + alt(verbs) + `)` + end + `[^.!?]{0,40}` + start + `(?:` + alt(objects) + `)` + end),
			sets: []*words.Set{prefilter(verbs), prefilter(objects)}},
		{re: regexp.MustCompile(start + `(?:` + alt(fwd) + `)` + end + `(?:[^.!?]{0,20}?[^\pL\pN_])?(?:` + alt(all) + `)` + end +
			`[^.!?]{0,60}(?:` + start + `(?:` + alt(to) + `)\s+)?[a-z0-9._%+-]+@[a-z0-9.-]+`),
			sets: []*words.Set{prefilter(fwd), prefilter(all), words.NewSet([]string{"@"})}},
	}
}

// Addressed reports whether s reads as instructions to an AI reader.
func Addressed(s string) bool {
	if s == "" {
		return false
	}
	f := fold(s)
	ws := wordsOf(f)
	for _, rl := range rules {
		if rl.mayMatch(f, ws) && rl.re.MatchString(f) {
			return true
		}
	}
	return false
}

// mayMatch reports whether f has a word of each of the rule's groups.
// ws, when not nil, is the set of f's words, for long texts: one pass to
// build it beats a search of the whole text for each of the rules' words.
func (rl rule) mayMatch(f string, ws map[string]bool) bool {
	if rl.sets != nil {
		for _, set := range rl.sets {
			if !set.Any(f) {
				return false
			}
		}
		return true
	}
	for _, group := range rl.words {
		found := false
		for _, word := range group {
			if has(f, ws, word) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// longText is the length from which Addressed indexes a text's words.
const longText = 2048

// wordsOf returns the set of f's words (maximal runs of letters, digits
// and '_', as package words delimits them), or nil for a short f.
func wordsOf(f string) map[string]bool {
	if len(f) < longText {
		return nil
	}
	ws := map[string]bool{}
	start := -1
	for i, r := range f {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			ws[f[start:i]] = true
			start = -1
		}
	}
	if start >= 0 {
		ws[f[start:]] = true
	}
	return ws
}

// has is words.Has(f, w), answered from the word set ws when there is one
// and w is a single word.
func has(f string, ws map[string]bool, w string) bool {
	if ws == nil || strings.HasPrefix(w, "=") || strings.IndexFunc(w, notWord) >= 0 {
		return words.Has(f, w)
	}
	if prefix, ok := strings.CutSuffix(w, "*"); ok {
		for k := range ws {
			if strings.HasPrefix(k, prefix) {
				return true
			}
		}
		return false
	}
	return ws[w]
}

func notWord(r rune) bool {
	return r != '*' && !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
}

// fold makes s comparable with the rules: the same text whatever
// disguise it wears. It applies NFKC (fullwidth and mathematical letters,
// ligatures become plain ones), drops invisible characters (a soft hyphen
// or a zero-width joiner inside "ig\u00adnore" hides it from a word
// search), maps each non-ASCII letter that Unicode TR39 lists as
// confusable with ASCII to that ASCII (Cyrillic "о" in "ignоre"), lower-
// cases, and folds runs of white space to one space, keeping line breaks
// (some patterns anchor at a line start). ASCII letters are never mapped,
// so "m" stays "m" (TR39's skeleton would make it "rn").
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if !ascii {
		s = norm.NFKC.String(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch r {
		case '\n':
			b.WriteByte('\n')
			space = false
			continue
		case ' ', '\t', '\r', '\u00a0', '\u2028', '\u2029', '\u3000':
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		if r >= 0x80 {
			if invisible.Is(r) {
				continue
			}
			if unicode.IsSpace(r) {
				if !space {
					b.WriteByte(' ')
				}
				space = true
				continue
			}
			if p := asciiPrototype(r); p != "" {
				b.WriteString(p)
				space = false
				continue
			}
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// asciiPrototype is r's TR39 prototype, lower-cased, when that is plain
// ASCII letters and digits; else "".
func asciiPrototype(r rune) string {
	p := confusable.GetReplacement(r)
	if p == "" {
		return ""
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 0x80 || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return ""
		}
	}
	return strings.ToLower(p)
}
