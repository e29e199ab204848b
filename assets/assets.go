// Package assets holds files embedded in the node binary: the demo mailbox,
// the phone web app and the application icon.
package assets

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"time"
)

// The phone app's icons are made from icon.png.
//go:generate go run ./mkicons

//go:embed demo phone icon.png demo-senders.txt
var files embed.FS

// DemoAuthServID is the authserv-id of the demo mailbox's invented mail
// provider: its Authentication-Results fields are the ones the demo node
// believes, as a real node believes its user's provider.
const DemoAuthServID = "mx.demo-mail.example"

// DemoMailbox is the sample mailbox for `mailnode demo`: one directory per
// folder, one RFC 5322 message per .eml file. The mails are realistic but
// invented (the domains that matter are real vendors' so extractors see
// real-looking senders); none was sent to anyone.
func DemoMailbox() fs.FS {
	sub, err := fs.Sub(files, "demo")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

// DemoSenderHistory is how long the demo mailbox's owner has had mail
// from each of its legitimate senders' domains (demo-senders.txt): the
// history that three weeks of sample mail leave out, without which every
// sender of the demo would be new and none trusted (mail/trust).
func DemoSenderHistory() (map[string]time.Time, error) {
	b, err := files.ReadFile("demo-senders.txt")
	if err != nil {
		return nil, err
	}
	out := map[string]time.Time{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 {
			return nil, fmt.Errorf("demo-senders.txt:%d: want a domain and a date", n)
		}
		at, err := time.Parse(time.DateOnly, f[1])
		if err != nil {
			return nil, fmt.Errorf("demo-senders.txt:%d: %w", n, err)
		}
		out[f[0]] = at
	}
	return out, sc.Err()
}

// PhoneApp is the phone's web app, served by the node at /phone/
// (docs/phone.md).
func PhoneApp() fs.FS {
	sub, err := fs.Sub(files, "phone")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

// Icon is the application icon (PNG).
func Icon() []byte {
	b, err := files.ReadFile("icon.png")
	if err != nil {
		panic(err)
	}
	return b
}
