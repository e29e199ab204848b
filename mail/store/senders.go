package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"

	"mailnode/mail/mime"
)

// Sender is what the store knows of a message's sender beyond whether it
// was authenticated (package mail/trust decides what follows from it).
type Sender struct {
	Address string // the message's first From address, lower case
	Domain  string // its registrable domain, e.g. zalando.de for service-mail.zalando.de
	// FirstSeen is when mail from Domain first arrived: the earliest
	// internal_date of its mail outside Junk and Trash. Zero: never seen
	// there.
	FirstSeen time.Time
	// WroteToDomain: a message in a \Sent folder has an address at Domain
	// among its To or Cc; WroteToAddress: Address itself.
	WroteToDomain, WroteToAddress bool
	// Relayed: the message relays another writer's words under Domain
	// (mail/trust.Relayed), which the store does not know; the reader of
	// the message's facts sets it.
	Relayed bool
}

// OrgDomain is the registrable domain of an address (Public Suffix List),
// lower case: mail from news.zalando.de and zalando.de is from one sender.
// An address without a domain gives "".
func OrgDomain(addr string) string {
	i := strings.LastIndexByte(addr, '@')
	if i < 0 {
		return ""
	}
	d := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(addr[i+1:]), "."))
	if d == "" {
		return ""
	}
	if r, err := publicsuffix.EffectiveTLDPlusOne(d); err == nil {
		return r
	}
	return d
}

// Senders returns what the store knows of the senders of messages ids, by
// message id; ids not stored are left out. It reads three small indexed
// tables: a few hundred microseconds for the handful of messages a
// question reads (BenchmarkSenders).
func (s *Store) Senders(ctx context.Context, ids []int64) (map[int64]Sender, error) {
	out := make(map[int64]Sender, len(ids))
	domains := map[string]bool{}
	// The messages' From in chunks well under SQLite's bound on a
	// statement's parameters; each domain's facts below are then looked
	// up once however many messages share it.
	const chunk = 500
	for len(ids) > 0 {
		n := min(chunk, len(ids))
		if err := s.sendersOf(ctx, ids[:n], out, domains); err != nil {
			return nil, err
		}
		ids = ids[n:]
	}
	if len(domains) == 0 {
		return out, nil
	}
	firstSeen := map[string]time.Time{}
	wroteDomain := map[string]bool{}
	wroteAddr := map[string]bool{}
	for d := range domains {
		var first int64
		err := s.db.QueryRowContext(ctx, `SELECT first_seen FROM sender_domains WHERE domain = ?`, d).Scan(&first)
		switch {
		case err == nil:
			firstSeen[d] = time.Unix(first, 0)
		case err != sql.ErrNoRows:
			return nil, fmt.Errorf("read sender domain: %w", err)
		}
		var wrote bool
		if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM correspondents WHERE domain = ?)`, d).Scan(&wrote); err != nil {
			return nil, fmt.Errorf("read correspondents: %w", err)
		}
		wroteDomain[d] = wrote
	}
	for _, sd := range out {
		if !wroteDomain[sd.Domain] || wroteAddr[sd.Address] {
			continue
		}
		var wrote bool
		if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM correspondents WHERE domain = ? AND address = ?)`,
			sd.Domain, sd.Address).Scan(&wrote); err != nil {
			return nil, fmt.Errorf("read correspondents: %w", err)
		}
		wroteAddr[sd.Address] = wrote
	}
	for id, sd := range out {
		sd.FirstSeen = firstSeen[sd.Domain]
		sd.WroteToDomain = wroteDomain[sd.Domain]
		sd.WroteToAddress = wroteAddr[sd.Address]
		out[id] = sd
	}
	return out, nil
}

// sendersOf adds the From address of messages ids to out and its
// domain to domains.
func (s *Store) sendersOf(ctx context.Context, ids []int64, out map[int64]Sender, domains map[string]bool) error {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, from_addr FROM messages WHERE id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	if err != nil {
		return fmt.Errorf("read senders: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var addr string
		if err := rows.Scan(&id, &addr); err != nil {
			return fmt.Errorf("read senders: %w", err)
		}
		addr = strings.ToLower(addr)
		sd := Sender{Address: addr, Domain: OrgDomain(addr)}
		if sd.Domain != "" {
			domains[sd.Domain] = true
		}
		out[id] = sd
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read senders: %w", err)
	}
	return nil
}

// senderRows collects what a batch of stored messages says of senders:
// each From domain's earliest arrival, and the addresses mail in \Sent
// went to.
type senderRows struct {
	firstSeen map[string]int64
	wrote     map[[2]string]bool // {domain, address}
}

func newSenderRows() *senderRows {
	return &senderRows{firstSeen: map[string]int64{}, wrote: map[[2]string]bool{}}
}

// arrival is when a message arrived, as Unix seconds: its internal_date,
// which its server sets as it takes the message in. A message without one
// (none of an IMAP server's have none; a message added by other means
// may) counts as arriving at stored, when the node stored it: the node
// saw the domain no earlier. Its Date header is not used, because the
// sender writes it, and a Date years back would make a domain registered
// yesterday look established.
func arrival(internal, stored int64) int64 {
	if internal > 0 {
		return internal
	}
	return stored
}

// add records a message of a folder of special use, from fromAddr,
// arrived at (Unix seconds), sent to the addresses in recipients.
func (r *senderRows) add(specialUse, fromAddr string, at int64, recipients ...[]mime.Address) {
	switch specialUse {
	case `\Junk`, `\Trash`:
		// Mail the provider judged spam, or the user threw away,
		// establishes no sender.
		return
	case `\Sent`:
		for _, as := range recipients {
			for _, a := range as {
				addr := strings.ToLower(strings.TrimSpace(a.Address))
				if d := OrgDomain(addr); d != "" {
					r.wrote[[2]string{d, addr}] = true
				}
			}
		}
		return // From is the user
	}
	if d := OrgDomain(fromAddr); d != "" {
		if cur, ok := r.firstSeen[d]; !ok || at < cur {
			r.firstSeen[d] = at
		}
	}
}

// insert writes the collected rows in tx, keeping the earliest first_seen
// of each domain.
func (r *senderRows) insert(ctx context.Context, tx *sql.Tx) error {
	const chunk = 400
	var args []any
	flush := func(q string, width int) error {
		for start := 0; start < len(args); start += chunk * width {
			end := min(start+chunk*width, len(args))
			n := (end - start) / width
			row := "(?" + strings.Repeat(", ?", width-1) + ")"
			stmt := strings.Replace(q, "VALUES", "VALUES "+row+strings.Repeat(", "+row, n-1), 1)
			if _, err := tx.ExecContext(ctx, stmt, args[start:end]...); err != nil {
				return err
			}
		}
		args = args[:0]
		return nil
	}
	for d, at := range r.firstSeen {
		args = append(args, d, at)
	}
	if err := flush(`INSERT INTO sender_domains (domain, first_seen) VALUES
		ON CONFLICT (domain) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen)`, 2); err != nil {
		return fmt.Errorf("sender domains: %w", err)
	}
	for k := range r.wrote {
		args = append(args, k[0], k[1])
	}
	if err := flush(`INSERT OR IGNORE INTO correspondents (domain, address) VALUES`, 2); err != nil {
		return fmt.Errorf("correspondents: %w", err)
	}
	return nil
}

// backfillSenders fills sender_domains and correspondents from the
// messages already stored (migration 0005), in the migration's
// transaction. now stands in for the arrival of messages without an
// internal_date.
func backfillSenders(ctx context.Context, tx *sql.Tx, now time.Time) error {
	rows, err := tx.QueryContext(ctx, `SELECT f.special_use, m.from_addr, m.internal_date, m.to_addrs, m.cc_addrs
		FROM messages m JOIN folders f ON f.id = m.folder_id`)
	if err != nil {
		return err
	}
	defer rows.Close()
	r := newSenderRows()
	for rows.Next() {
		var use, from, to, cc string
		var internal int64
		if err := rows.Scan(&use, &from, &internal, &to, &cc); err != nil {
			return err
		}
		var tos, ccs []mime.Address
		if use == `\Sent` {
			// A damaged list names no one: the rest is still read.
			_ = json.Unmarshal([]byte(to), &tos)
			_ = json.Unmarshal([]byte(cc), &ccs)
		}
		r.add(use, from, arrival(internal, now.Unix()), tos, ccs)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	return r.insert(ctx, tx)
}

// KnownSince records that mail from each domain (a registrable domain,
// lower case) has been arriving since the time given, when that is
// earlier than what the stored mail says. It is for a mailbox whose
// history the store does not hold: the demo's three weeks of mail stand
// for a mailbox that has had mail from these senders for years
// (assets.DemoSenderHistory). A real node learns it from the mail.
func (s *Store) KnownSince(ctx context.Context, history map[string]time.Time) error {
	if len(history) == 0 {
		return nil
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for d, at := range history {
			if _, err := tx.ExecContext(ctx, `INSERT INTO sender_domains (domain, first_seen) VALUES (?, ?)
				ON CONFLICT (domain) DO UPDATE SET first_seen = min(first_seen, excluded.first_seen)`,
				strings.ToLower(d), at.Unix()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record senders' history: %w", err)
	}
	return nil
}
