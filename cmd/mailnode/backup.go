package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"mailnode/app"
	"mailnode/app/backup"
)

// passphraseEnv holds the backup passphrase for scripts; people are asked
// on the terminal. Never a flag: it would show in the process list.
const passphraseEnv = "MAILNODE_BACKUP_PASSPHRASE"

// cmdBackup seals the node's identity into a file (docs/desktop.md: moving
// to a new computer).
func cmdBackup(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newDataFlags("backup", stderr)
	fs.existing = true
	out := fs.String("out", "mailnode-backup.mnb", "the file to write (mode 0600)")
	cfg, err := fs.parse(args, getenv)
	if err != nil {
		return err
	}
	pass, err := passphrase(stdin, stderr, getenv, true)
	if err != nil {
		return err
	}
	b, _, done, err := nodeOrStore(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer done()
	sealed, err := b.Backup(ctx, pass)
	if err != nil {
		return err
	}
	if err := app.WriteBackupFile(*out, sealed); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote %s: this node's keys, relay name, grants, paired phones and settings, sealed with your passphrase.\n"+
		"The mailbox is not in it; it syncs again. On the new computer: mailnode restore %s\n", *out, *out)
	return nil
}

// cmdRestore writes a backup into a new data directory.
func cmdRestore(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := newDataFlags("restore", stderr)
	cfg, err := fs.parse(args, getenv)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageError{errors.New("restore: name the backup file: mailnode restore FILE")}
	}
	sealed, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	pass, err := passphrase(stdin, stderr, getenv, false)
	if err != nil {
		return err
	}
	res, err := app.Restore(ctx, cfg.DataDir, fs.o.configPath, sealed, pass, nil)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	fmt.Fprintf(stdout, "Restored the node of %s into %s: %d accounts, %d paired phones, %d agent grants",
		res.Created.Local().Format("2 Jan 2006 15:04"), cfg.DataDir, res.Accounts, res.Phones, res.Grants)
	if res.RelayName != "" {
		fmt.Fprintf(stdout, ", relay name %s", res.RelayName)
	}
	fmt.Fprintln(stdout, ".\nStart it (mailnode, or mailnode serve): the mailbox syncs again; the phones and agents need nothing new.")
	return nil
}

// passphrase reads the backup passphrase from the environment, or from the
// terminal (twice when sealing). When sealing, it first offers a
// passphrase made of random words, which an empty answer takes: most
// people's own are far weaker than six words from the EFF's list.
func passphrase(stdin io.Reader, stderr io.Writer, getenv func(string) string, seal bool) (string, error) {
	if p := getenv(passphraseEnv); p != "" {
		return p, nil
	}
	var offer string
	if seal {
		var err error
		if offer, err = backup.NewPassphrase(); err != nil {
			return "", err
		}
		fmt.Fprintf(stderr, "A passphrase made for you (%d random words from the EFF's list, about 77 bits):\n\n    %s\n\n"+
			"Write it down: the backup cannot be opened without it. Press Enter to use it, or type your own.\n",
			backup.PassphraseWords, offer)
	}
	f, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if p := strings.TrimRight(line, "\r\n"); p != "" {
			return p, nil
		}
		if seal && err == nil {
			return offer, nil // an empty line: the offer
		}
		return "", usageError{fmt.Errorf("no passphrase: type it, or set %s", passphraseEnv)}
	}
	fmt.Fprint(stderr, "Backup passphrase: ")
	p, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(stderr)
	if err != nil {
		return "", err
	}
	if seal && len(p) == 0 {
		return offer, nil
	}
	if seal {
		fmt.Fprint(stderr, "Again: ")
		q, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		if err != nil {
			return "", err
		}
		if string(q) != string(p) {
			return "", usageError{errors.New("the two passphrases differ")}
		}
	}
	return string(p), nil
}
