package main

import (
	"mailnode/mail/msgauth"

	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"mailnode/extract"
	"mailnode/mail/mime"
)

// cmdExtract shows what the extractors read from .eml files, each on its
// own and merged: for checking a mail the node misreads, without a store.
func cmdExtract(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("extract", flag.ContinueOnError)
	fs.SetOutput(stderr)
	authserv := fs.String("authserv-id", "", "comma-separated authserv-ids of your provider whose Authentication-Results are trusted")
	merged := fs.Bool("merged", false, "print only the merged trips, orders and bills")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mailnode extract [--authserv-id ID] [--merged] FILE.eml...")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return usageError{fmt.Errorf("extract needs at least one .eml file")}
	}
	var opt msgauth.Checker
	if *authserv != "" {
		opt.AuthServIDs = strings.Split(*authserv, ",")
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	var recs []extract.Record
	for i, path := range fs.Args() {
		raw, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		m := mime.Parse(raw)
		res := extract.Extract(m, opt.Check(m, raw))
		for _, f := range res.Facts {
			recs = append(recs, extract.Record{Fact: f, Message: int64(i + 1), Date: m.Date,
				Tiebreak: extract.Tiebreak(m.MessageID, raw), Authenticated: res.Auth.Authenticated})
		}
		if !*merged {
			if err := enc.Encode(map[string]any{"file": path, "auth": res.Auth, "facts": res.Facts}); err != nil {
				return err
			}
		}
	}
	mg := extract.Merge(recs)
	return enc.Encode(map[string]any{"trips": mg.Trips, "orders": mg.Orders, "bills": mg.Bills})
}
