package autoconfig

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

//go:embed ispdb/*.xml
var ispdbFiles embed.FS

// ispdb is the embedded ISP database, indexed by every domain its files
// name (gmail.com and googlemail.com lead to the same file). The index is
// built on first use: most runs of the node never ask.
type ispdb struct {
	once  sync.Once
	files map[string]string // domain -> file name
	err   error
}

func (db *ispdb) load() {
	db.files = make(map[string]string)
	entries, err := fs.ReadDir(ispdbFiles, "ispdb")
	if err != nil {
		db.err = fmt.Errorf("read the ISP database: %w", err)
		return
	}
	for _, e := range entries {
		name := "ispdb/" + e.Name()
		doc, err := ispdbFiles.ReadFile(name)
		if err != nil {
			db.err = fmt.Errorf("read %s: %w", name, err)
			return
		}
		// A file is indexed under its own name and every domain it lists,
		// whether or not it offers IMAP (a POP-only provider is still that
		// provider: the person is told, not sent elsewhere).
		db.files[strings.TrimSuffix(e.Name(), ".xml")] = name
		_, domains, _ := parseDocument(doc, "user@"+strings.TrimSuffix(e.Name(), ".xml"))
		for _, d := range domains {
			d = strings.ToLower(strings.TrimSpace(d))
			if _, taken := db.files[d]; !taken && d != "" {
				db.files[d] = name
			}
		}
	}
}

// lookup finds the file for domain and reads it for address.
func (db *ispdb) lookup(domain, address string) (Settings, bool, error) {
	db.once.Do(db.load)
	if db.err != nil {
		return Settings{}, false, db.err
	}
	name, ok := db.files[strings.ToLower(domain)]
	if !ok {
		return Settings{}, false, nil
	}
	doc, err := ispdbFiles.ReadFile(name)
	if err != nil {
		return Settings{}, false, err
	}
	s, _, err := parseDocument(doc, address)
	if err != nil {
		return Settings{}, true, fmt.Errorf("%s in the ISP database: %w", domain, err)
	}
	return s, true, nil
}
