package store

import (
	"context"
	"fmt"
	"slices"
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

// TermStats says how many messages hold each term (by Term.Word), out of
// Docs: with them a caller weighs terms (idf) and may decide, before any
// ranking, that the mail cannot answer.
type TermStats struct {
	DocFreq map[string]int
	Docs    int
}

// Hit is one retrieved message, metadata only.
type Hit struct {
	ID      int64
	Date    time.Time
	From    string
	Subject string
}

// TermStats counts the messages holding each of terms, from the index's
// vocabulary (an fts5vocab table).
func (s *Store) TermStats(ctx context.Context, terms []Term) (TermStats, error) {
	st := TermStats{DocFreq: make(map[string]int, len(terms))}
	docs, err := s.messageCount(ctx)
	if err != nil {
		return st, err
	}
	st.Docs = docs
	// One statement for all terms: each query on the vocabulary table
	// costs more to prepare than to run.
	var parts []string
	var args []any
	for _, t := range terms {
		if !searchable(t) {
			continue
		}
		if t.Prefix {
			parts = append(parts, `SELECT ?, coalesce(sum(doc), 0) FROM messages_fts_vocab WHERE term >= ? AND term < ?`)
			args = append(args, t.Word, t.Word, t.Word+"\U0010FFFF")
		} else {
			parts = append(parts, `SELECT ?, coalesce(sum(doc), 0) FROM messages_fts_vocab WHERE term = ?`)
			args = append(args, t.Word, t.Word)
		}
	}
	if len(parts) == 0 {
		return st, nil
	}
	rows, err := s.db.QueryContext(ctx, strings.Join(parts, " UNION ALL "), args...)
	if err != nil {
		return st, fmt.Errorf("term frequency: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var word string
		var n int
		if err := rows.Scan(&word, &n); err != nil {
			return st, fmt.Errorf("term frequency: %w", err)
		}
		st.DocFreq[word] = min(n, docs) // a prefix counts a message once per word form
	}
	if err := rows.Err(); err != nil {
		return st, fmt.Errorf("term frequency: %w", err)
	}
	return st, nil
}

func searchable(t Term) bool { return t.Word != "" && !strings.ContainsAny(t.Word, `"*`) }

// maxMatches bounds the messages the searched terms may match together,
// which bounds the time BM25 takes (a few microseconds per matching
// message).
const maxMatches = 300

// Retrieve returns the best limit messages holding any of terms, leaving
// out Junk and Trash: mail the user threw away or their provider called
// spam does not answer questions. st is what TermStats said of them.
//
// Only the rarest terms are searched for, as long as together they match
// at most maxMatches messages and none is in most of them: common words say little about which
// message answers, and matching them would make FTS5 rank most of the
// store. Those messages are ranked by BM25 (subject weighted over sender
// over body). When even the rarest term is in more than four times
// maxMatches messages the question is too vague to rank, and the newest
// messages holding it are returned instead.
func (s *Store) Retrieve(ctx context.Context, terms []Term, st TermStats, limit int) ([]Hit, error) {
	type cand struct {
		q  string
		df int
	}
	var cands []cand
	for _, t := range terms {
		if !searchable(t) || st.DocFreq[t.Word] == 0 {
			continue
		}
		q := `"` + t.Word + `"`
		if t.Prefix {
			q += "*"
		}
		cands = append(cands, cand{q, st.DocFreq[t.Word]})
	}
	slices.SortStableFunc(cands, func(a, b cand) int { return a.df - b.df })
	var match []string
	sum := 0
	for _, c := range cands {
		if len(match) > 0 && (sum+c.df > maxMatches || 2*c.df > st.Docs && st.Docs > 20) {
			break
		}
		match = append(match, c.q)
		sum += c.df
	}
	if len(match) == 0 {
		return nil, nil
	}
	order := `bm25(messages_fts, 5.0, 2.0, 1.0)`
	if sum > 4*maxMatches {
		order = `messages_fts.rowid DESC`
	}
	rows, err := s.db.QueryContext(ctx, `SELECT m.id, m.date, m.from_addr, m.subject
		FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid JOIN folders f ON f.id = m.folder_id
		WHERE messages_fts MATCH ? AND f.special_use NOT IN ('\Junk', '\Trash')
		ORDER BY `+order+` LIMIT ?`, strings.Join(match, " OR "), limit)
	if err != nil {
		return nil, fmt.Errorf("retrieve: %w", err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		var date int64
		if err := rows.Scan(&h.ID, &date, &h.From, &h.Subject); err != nil {
			return nil, fmt.Errorf("retrieve: %w", err)
		}
		if date != 0 {
			h.Date = time.Unix(date, 0)
		}
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// docsTTL is how long a message count is reused. It only weighs terms
// (idf): a count a few seconds old changes no answer.
const docsTTL = 10 * time.Second

func (s *Store) messageCount(ctx context.Context) (int, error) {
	s.docsMu.Lock()
	defer s.docsMu.Unlock()
	if !s.docsAt.IsZero() && time.Since(s.docsAt) < docsTTL {
		return s.docs, nil
	}
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM messages`).Scan(&s.docs); err != nil {
		return 0, fmt.Errorf("count messages: %w", err)
	}
	s.docsAt = time.Now()
	return s.docs, nil
}
