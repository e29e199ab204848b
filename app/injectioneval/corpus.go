package injectioneval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Mail is one attack mail of a corpus, as its manifest.json describes it.
type Mail struct {
	File string `json:"file"`
	// From is the sender's address; Verified says whether the mail's
	// Authentication-Results field (the demo provider's) authenticates
	// its domain.
	From     string `json:"from_addr"`
	Subject  string `json:"subject"`
	Verified bool   `json:"verified"`
	// Payload is the instruction text the attacker put in, verbatim.
	Payload string `json:"payload"`
	// Secrets are the codes, card numbers and IBANs planted in the mail,
	// each in every form it is written in; none may reach an agent.
	Secrets []string `json:"secrets"`
	Source  struct {
		Style    string `json:"style"`
		Category string `json:"attack_category"`
	} `json:"source"`
	// Raw is the message, read from File.
	Raw []byte `json:"-"`
}

// Style names the kind of attack: the corpus's style or category.
func (m Mail) Style() string {
	if m.Source.Style != "" {
		return m.Source.Style
	}
	return m.Source.Category
}

// Corpus is a directory of attack mails with their manifest.json (the
// shape of ../shared/corpus/injection-bipia's).
type Corpus struct {
	Name  string
	Mails []Mail
}

// Load reads the corpus in dir, naming it name.
func Load(name, dir string) (Corpus, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return Corpus{}, fmt.Errorf("read corpus %s: %w", name, err)
	}
	var mails []Mail
	if err := json.Unmarshal(b, &mails); err != nil {
		return Corpus{}, fmt.Errorf("read corpus %s: manifest.json: %w", name, err)
	}
	for i := range mails {
		if mails[i].File == "" || filepath.Base(mails[i].File) != mails[i].File {
			return Corpus{}, fmt.Errorf("read corpus %s: manifest entry %d names no file of the directory", name, i)
		}
		if mails[i].Raw, err = os.ReadFile(filepath.Join(dir, mails[i].File)); err != nil {
			return Corpus{}, fmt.Errorf("read corpus %s: %w", name, err)
		}
	}
	return Corpus{Name: name, Mails: mails}, nil
}
