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

	"mailnode/extract/words"
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
}

func r(pattern string, words ...[]string) rule {
	return rule{words: words, re: regexp.MustCompile(pattern)}
}

func w(ws ...string) []string { return ws }

var machineWords = w("ai", "a.i.", "llm", "language model", "assistant", "agent", "chatbot", "bot", "gpt", "chatgpt", "claude", "copilot")

var rules = []rule{
	// Overriding earlier instructions.
	r(`\b(?:ignore|disregard|forget|override|bypass)\b[^.!?]{0,40}\b(?:instructions?|prompts?|rules|guidelines|directives|system message|context)\b`,
		w("ignore", "disregard", "forget", "override", "bypass")),
	r(`\b(?:ignorier|vergiss|missacht)\w*\b[^.!?]{0,40}\b(?:anweisungen|anordnungen|regeln|instruktionen)\b`,
		w("ignorier*", "vergiss*", "missacht*")),
	r(`\b(?:ignore[rz]?|oublie[rz]?)\b[^.!?]{0,40}\b(?:instructions|consignes|règles)\b`,
		w("ignore*", "oublie*")),
	r(`\b(?:ignora|olvida)\w*\b[^.!?]{0,40}\b(?:instrucciones|istruzioni|reglas|regole)\b`,
		w("ignora*", "olvida*")),
	r(`\bnew (?:instructions|rules|task|objective)\b`, w("new instructions", "new rules", "new task", "new objective")),
	r(`\b(?:system|developer|admin) (?:prompt|override|message|instruction|mode)\b`,
		w("system", "developer", "admin"), w("prompt", "override", "message", "instruction", "mode")),
	r(`\bjailbreak`, w("jailbreak*")),
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
	r(`\b(?:forward|send|exfiltrate|upload|copy|leak|share|transfer)\b[^.!?]{0,20}\b(?:all|every|any|each|the user's)\b[^.!?]{0,60}\bto\s+[a-z0-9._%+-]+@[a-z0-9.-]+`,
		w("forward", "send", "exfiltrate", "upload", "copy", "leak", "share", "transfer"), w("=@")),
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
}

// Addressed reports whether s reads as instructions to an AI reader.
func Addressed(s string) bool {
	if s == "" {
		return false
	}
	f := fold(s)
	for _, rl := range rules {
		if rl.mayMatch(f) && rl.re.MatchString(f) {
			return true
		}
	}
	return false
}

func (rl rule) mayMatch(f string) bool {
	for _, group := range rl.words {
		found := false
		for _, word := range group {
			if words.Has(f, word) {
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

// fold lower-cases s and folds white space, keeping line breaks (some
// patterns anchor at a line start).
func fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.ToLower(s) {
		switch r {
		case '\n':
			b.WriteByte('\n')
			space = false
			continue
		case ' ', '\t', '\r', '\u00a0', '\u200b', '\u2028', '\u2029':
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
