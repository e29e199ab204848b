package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Caps on what a read tool returns.
const (
	maxItems       = 20
	maxAnswerRunes = 280 // ask: one short answer
	maxExcerptRune = 400 // get_excerpt
)

type reader struct {
	src Source
	now func() time.Time
}

// senderName keeps the display name or the domain of a sender: enough to
// say who wrote, without handing out the user's correspondents' addresses.
func senderName(from string) string {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return ""
	}
	if a.Name != "" {
		return a.Name
	}
	_, domain, _ := strings.Cut(a.Address, "@")
	return domain
}

func (r *reader) travel(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct{ From, To *Time }
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	from, to := r.now(), time.Time{}
	if a.From != nil {
		from = a.From.Time
	}
	if a.To != nil {
		to = a.To.Time
		if !to.After(from) {
			return nil, &Error{Code: "invalid_arguments", Message: "to must be after from"}
		}
	}
	trips, err := r.src.Trips(ctx, from, to, maxItems)
	if err != nil {
		return nil, fmt.Errorf("read trips: %w", err)
	}
	return map[string]any{"trips": trips}, nil
}

func (r *reader) orders(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct{ Merchant string }
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	merchant := strings.TrimSpace(a.Merchant)
	if merchant == "" {
		return nil, &Error{Code: "invalid_arguments", Message: "order_status needs the argument merchant (a merchant name or sender domain)"}
	}
	if utf8.RuneCountInString(merchant) > 200 {
		return nil, &Error{Code: "invalid_arguments", Message: "merchant is longer than 200 characters"}
	}
	orders, err := r.src.Orders(ctx, merchant, maxItems)
	if err != nil {
		return nil, fmt.Errorf("read orders: %w", err)
	}
	return map[string]any{"orders": orders}, nil
}

// defaultBillWindow is how far ahead bills_due looks without "before".
const defaultBillWindow = 30 * 24 * time.Hour

func (r *reader) bills(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct{ Before *Time }
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	before := r.now().Add(defaultBillWindow)
	if a.Before != nil {
		before = a.Before.Time
	}
	bills, err := r.src.BillsDue(ctx, before, maxItems)
	if err != nil {
		return nil, fmt.Errorf("read bills: %w", err)
	}
	return map[string]any{"bills": bills}, nil
}

func (r *reader) ask(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct{ Question string }
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Question) == "" {
		return nil, &Error{Code: "invalid_arguments", Message: "ask needs the argument question"}
	}
	m, ok, err := r.best(ctx, a.Question)
	if err != nil || !ok {
		return map[string]any{"answer": "No answer found in the mail.", "sources": 0}, err
	}
	answer := fmt.Sprintf("The closest message is %q from %s, %s.", Redact(m.Subject), senderName(m.From), m.Date.UTC().Format("2 Jan 2006"))
	return map[string]any{"answer": cut(answer, maxAnswerRunes), "sources": 1}, nil
}

func (r *reader) excerpt(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct{ Query string }
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Query) == "" {
		return nil, &Error{Code: "invalid_arguments", Message: "get_excerpt needs the argument query"}
	}
	m, ok, err := r.best(ctx, a.Query)
	if err != nil {
		return nil, err
	}
	if !ok {
		return map[string]any{"excerpt": "", "subject": "", "date": "", "found": false}, nil
	}
	text, err := r.src.Text(ctx, m.ID)
	if err != nil {
		return nil, fmt.Errorf("read message: %w", err)
	}
	return map[string]any{
		"excerpt": cut(Redact(around(text, a.Query)), maxExcerptRune),
		"subject": Redact(m.Subject),
		"date":    m.Date.UTC().Format(time.RFC3339),
		"found":   true,
	}, nil
}

// best finds the message that best matches the words of q: all of them if
// any message has them all, else the most distinctive half.
func (r *reader) best(ctx context.Context, q string) (Message, bool, error) {
	words := keywords(q)
	for len(words) > 0 {
		ms, err := r.src.Search(ctx, strings.Join(words, " "), 1)
		if err != nil {
			return Message{}, false, fmt.Errorf("search mail: %w", err)
		}
		if len(ms) > 0 {
			return ms[0], true, nil
		}
		if len(words) == 1 {
			break
		}
		// Keep the longer words: they are the rarer ones.
		slices.SortStableFunc(words, func(a, b string) int { return utf8.RuneCountInString(b) - utf8.RuneCountInString(a) })
		words = words[:len(words)/2]
	}
	return Message{}, false, nil
}

var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "is": true, "are": true, "was": true, "what": true, "when": true,
	"where": true, "which": true, "who": true, "how": true, "my": true, "me": true, "i": true, "of": true,
	"to": true, "for": true, "in": true, "on": true, "at": true, "do": true, "does": true, "did": true,
	"and": true, "or": true, "from": true, "with": true, "it": true, "this": true, "that": true, "be": true,
}

func keywords(q string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !(r == '-' || r == '\'' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r > 127)
	}) {
		if !stopwords[w] && len(out) < 12 {
			out = append(out, w)
		}
	}
	return out
}

// around returns the part of text near the first keyword of q.
func around(text, q string) string {
	lower := strings.ToLower(text)
	at := -1
	for _, w := range keywords(q) {
		if i := strings.Index(lower, w); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		at = 0
	}
	start := max(0, at-120)
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	return strings.Join(strings.Fields(text[start:]), " ")
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
