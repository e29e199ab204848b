package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Term is one word of a retrieval query, already folded the way the index
// folds text (lower case, no diacritics). Prefix matches every word that
// starts with Word.
type Term struct {
	Word   string
	Prefix bool
}

// Retrieval is what Retrieve found.
type Retrieval struct {
	// Hits are the best messages, best first.
	Hits []Hit
	// DocFreq is how many messages hold each term, by Term.Word; with
	// Docs, the number of messages searched, it gives each term's weight.
	DocFreq map[string]int
	Docs    int
}

// Hit is one retrieved message, metadata only.
type Hit struct {
	ID      int64
	Date    time.Time
	From    string
	Subject string
	// Score is FTS5's BM25 (lower is better).
	Score float64
}

// Retrieve ranks the messages holding any of terms by BM25 (subject
// weighted over sender over body) and returns the best limit of them,
// leaving out Junk and Trash: mail the user threw away or their provider
// called spam does not answer questions.
//
// Terms held by more than half the messages are not searched for: they
// say nothing about which message answers, and matching them would make
// FTS5 rank most of the store.
func (s *Store) Retrieve(ctx context.Context, terms []Term, limit int) (Retrieval, error) {
	r := Retrieval{DocFreq: make(map[string]int, len(terms))}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&r.Docs); err != nil {
		return r, fmt.Errorf("count messages: %w", err)
	}
	var match []string
	for _, t := range terms {
		if t.Word == "" || strings.ContainsAny(t.Word, `"*`) {
			continue
		}
		var n int
		var err error
		if t.Prefix {
			err = s.db.QueryRowContext(ctx, `SELECT coalesce(sum(doc), 0) FROM messages_fts_vocab WHERE term >= ? AND term < ?`,
				t.Word, t.Word+"\U0010FFFF").Scan(&n)
		} else {
			err = s.db.QueryRowContext(ctx, `SELECT coalesce(sum(doc), 0) FROM messages_fts_vocab WHERE term = ?`, t.Word).Scan(&n)
		}
		if err != nil {
			return r, fmt.Errorf("term frequency: %w", err)
		}
		n = min(n, r.Docs) // a prefix counts a message once per word form
		r.DocFreq[t.Word] = n
		if n == 0 || 2*n > r.Docs && r.Docs > 20 {
			continue
		}
		q := `"` + t.Word + `"`
		if t.Prefix {
			q += "*"
		}
		match = append(match, q)
	}
	if len(match) == 0 {
		return r, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT m.id, m.date, m.from_addr, m.subject, bm25(messages_fts, 5.0, 2.0, 1.0) AS score
		FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN folders f ON f.id = m.folder_id
		WHERE messages_fts MATCH ? AND f.special_use NOT IN ('\Junk', '\Trash')
		ORDER BY score LIMIT ?`, strings.Join(match, " OR "), limit)
	if err != nil {
		return r, fmt.Errorf("retrieve: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h Hit
		var date int64
		if err := rows.Scan(&h.ID, &date, &h.From, &h.Subject, &h.Score); err != nil {
			return r, fmt.Errorf("retrieve: %w", err)
		}
		if date != 0 {
			h.Date = time.Unix(date, 0)
		}
		r.Hits = append(r.Hits, h)
	}
	return r, rows.Err()
}
