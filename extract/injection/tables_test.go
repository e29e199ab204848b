package injection

import (
	"strings"
	"testing"

	"mailnode/extract/lang"
)

// TestEveryLanguageOverride: in every language with the words, its first
// verb of overriding, its word for "all" and its first word for
// instructions are an
// instruction to a machine, as written, in capitals and (Greek) without
// accents: the tables' words are folded as the text is (foldAll). Before
// the fifth outside review no Russian, Ukrainian, Bulgarian or Greek
// sentence matched, their letters being folded to Latin look-alikes in
// the text only.
func TestEveryLanguageOverride(t *testing.T) {
	for _, l := range lang.Languages() {
		verbs, objects := lang.Of(l, "injection.override"), lang.Of(l, "injection.instructions")
		if len(verbs) == 0 || len(objects) == 0 {
			continue
		}
		// A word between, as the rule asks ("ignore all instructions").
		between := "…"
		if all := lang.Of(l, "injection.all"); len(all) > 0 {
			between = strings.Trim(all[0], "*=")
		}
		s := strings.Trim(verbs[0], "*=") + " " + between + " " + strings.Trim(objects[0], "*=") + "."
		for _, form := range []string{s, strings.ToUpper(s), withoutGreekAccents(s)} {
			if !Addressed(form) {
				t.Errorf("%s: %q is not Addressed", l, form)
			}
		}
	}
}

func withoutGreekAccents(s string) string {
	return strings.NewReplacer("ά", "α", "έ", "ε", "ή", "η", "ί", "ι", "ό", "ο", "ύ", "υ", "ώ", "ω").Replace(s)
}
