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
)

// patterns are matched against lower-cased text with runs of white space
// folded to one space. Each must be specific enough that ordinary
// commercial or personal mail does not trip it: a false positive only
// hides one message from ask, but it should stay rare.
var patterns = regexp.MustCompile(strings.Join([]string{
	// Overriding earlier instructions.
	`\b(?:ignore|disregard|forget|override|bypass)\b[^.!?]{0,40}\b(?:instructions?|prompts?|rules|guidelines|directives|system message|context)\b`,
	`\b(?:ignorier|vergiss|missacht)\w*\b[^.!?]{0,40}\b(?:anweisungen|anordnungen|regeln|instruktionen)\b`,
	`\b(?:ignore[rz]?|oublie[rz]?)\b[^.!?]{0,40}\b(?:instructions|consignes|règles)\b`,
	`\b(?:ignora|olvida)\w*\b[^.!?]{0,40}\b(?:instrucciones|istruzioni|reglas|regole)\b`,
	`\bnew (?:instructions|rules|task|objective)\b`,
	`\b(?:system|developer|admin) (?:prompt|override|message|instruction|mode)\b`,
	`\bjailbreak`,
	// Addressing a machine reader.
	`\b(?:attention|dear|hey|hello|hi|note to|notice to|message to|to the|for the|for your)\s+(?:an? )?(?:ai|a\.i\.|llm|language model|assistant|ai assistant|ai agent|agent|chatbot|bot|gpt|chatgpt|claude|copilot)\b`,
	`\b(?:ai|llm|language model|virtual) (?:assistant|agent|model)s?\b[^.!?]{0,30}\b(?:reading|processing|summari[sz]ing|handling|with access)\b`,
	`\byou are (?:now |an? |the )*(?:ai|llm|assistant|agent|chatbot|language model|gpt|chatgpt|claude)\b`,
	`\bas an (?:ai|llm|language model)\b`,
	`(?:^|\n)\s*(?:assistant|ai|ai assistant|ai agent)\s*:`,
	`\[(?:system|assistant)\]`,
	`<\|?(?:im_start|im_end|system|endoftext)\|?>`,
	`\[/?(?:inst|sys)\]`,
	// Asking for actions no mail should ask a reader for.
	`\b(?:forward|send|exfiltrate|upload|copy|leak|share|transfer)\b[^.!?]{0,20}\b(?:all|every|any|each|the user's)\b[^.!?]{0,60}\bto\s+[a-z0-9._%+-]+@[a-z0-9.-]+`,
	`\b(?:grant|give)\b[^.!?]{0,40}\b(?:this|the) (?:sender|agent|address)\b[^.!?]{0,40}\b(?:access|permissions?|rights)\b`,
	`\b(?:grant|give)\b[^.!?]{0,40}\b(?:raw_read|send_draft|full access|mailbox access)\b`,
	`\bdo not (?:tell|inform|alert|notify|show) (?:the )?(?:user|owner|account holder)\b`,
	`\bwithout (?:telling|informing|asking|alerting) (?:the )?(?:user|owner)\b`,
	`\bpre-?approved by the (?:user|owner|account holder)\b`,
	`\bauthori[sz]ed by the (?:account )?(?:owner|user)\b`,
	`\b(?:one-time|verification|security|2fa|otp) codes?\b[^.!?]{0,30}\bto (?:the sender|us|this address|me)\b`,
}, "|"))

// Addressed reports whether s reads as instructions to an AI reader.
func Addressed(s string) bool {
	if s == "" {
		return false
	}
	return patterns.MatchString(fold(s))
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
