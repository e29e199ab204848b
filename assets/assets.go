// Package assets holds files embedded in the node binary: the demo mailbox,
// the phone web app and the application icon.
package assets

import (
	"embed"
	"io/fs"
)

//go:embed demo phone icon.png
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
