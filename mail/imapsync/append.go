package imapsync

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// AppendSent puts a message the node sent into the account's Sent folder
// (found by its \Sent special use, else by a usual name, else created
// as "Sent"), marked \Seen, so that the user's mail clients show it as
// they show what they sent themselves. It returns the folder's name. The
// next sync brings the message into the store like any other.
func AppendSent(ctx context.Context, cfg Config, msg []byte, date time.Time) (string, error) {
	s, err := New(cfg, nil, nil)
	if err != nil {
		return "", err
	}
	c, err := s.connect(ctx, nil)
	if err != nil {
		return "", err
	}
	defer c.Close()
	folder, err := sentFolder(c)
	if err != nil {
		return "", err
	}
	if folder == "" {
		folder = "Sent"
		if err := c.Create(folder, &imap.CreateOptions{SpecialUse: []imap.MailboxAttr{imap.MailboxAttrSent}}).Wait(); err != nil {
			// Servers without CREATE-SPECIAL-USE refuse the option.
			if err := c.Create(folder, nil).Wait(); err != nil {
				return "", fmt.Errorf("create Sent folder: %w", err)
			}
		}
	}
	cmd := c.Append(folder, int64(len(msg)), &imap.AppendOptions{Flags: []imap.Flag{imap.FlagSeen}, Time: date})
	if _, err := cmd.Write(msg); err != nil {
		cmd.Close()
		return "", fmt.Errorf("append to %s: %w", folder, err)
	}
	if err := cmd.Close(); err != nil {
		return "", fmt.Errorf("append to %s: %w", folder, err)
	}
	if _, err := cmd.Wait(); err != nil {
		return "", fmt.Errorf("append to %s: %w", folder, err)
	}
	c.Logout().Wait()
	return folder, nil
}

// sentNames are the names clients and servers give the Sent folder when
// it has no special-use attribute.
var sentNames = []string{"sent", "sent items", "sent messages", "sent mail", "inbox.sent"}

func sentFolder(c *imapclient.Client) (string, error) {
	var opts *imap.ListOptions
	if c.Caps().Has(imap.CapSpecialUse) {
		opts = &imap.ListOptions{ReturnSpecialUse: true}
	}
	list, err := c.List("", "*", opts).Collect()
	if err != nil {
		return "", fmt.Errorf("list folders: %w", err)
	}
	byName := ""
	for _, ld := range list {
		if slices.Contains(ld.Attrs, imap.MailboxAttrNoSelect) {
			continue
		}
		if slices.Contains(ld.Attrs, imap.MailboxAttrSent) {
			return ld.Mailbox, nil
		}
		if byName == "" && slices.Contains(sentNames, strings.ToLower(ld.Mailbox)) {
			byName = ld.Mailbox
		}
	}
	return byName, nil
}
