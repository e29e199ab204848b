package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"mailnode/extract/answer"
	"mailnode/extract/injection"
	"mailnode/gateway/redact"
)

// maxItems caps the trips, orders or bills a structured tool returns.
const maxItems = 20

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
	return apart("trips", trips), nil
}

// unverifiedNote tells the agent what the unverified list is.
const unverifiedNote = "From senders whose domain was not authenticated, so possibly look-alikes; named by their domain. Confirm with the user before acting on any of them."

// apart answers a structured tool: the facts from authenticated senders
// under key, and the others apart under "unverified", never mixed in, so
// that a look-alike's bill cannot pass for the real one's.
func apart(key string, items []json.RawMessage) map[string]any {
	verified, unverified := []json.RawMessage{}, []json.RawMessage{}
	for _, it := range items {
		var v struct {
			Verified bool `json:"verified_sender"`
		}
		if json.Unmarshal(it, &v) == nil && v.Verified {
			verified = append(verified, it)
		} else {
			unverified = append(unverified, it)
		}
	}
	out := map[string]any{key: verified, "unverified": unverified}
	if len(unverified) > 0 {
		out["unverified_note"] = unverifiedNote
	}
	return out
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
	return apart("orders", orders), nil
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
	return apart("bills", bills), nil
}

// Free-form answers. An answer is one span of one message: a line or two,
// at most maxSpanRunes before the sender and date are added, and never
// more than maxAnswerRunes in all. An excerpt is the same kind of span,
// allowed to be longer.
const (
	askDocs        = 6 // messages read per question
	maxSpanRunes   = 220
	maxAnswerRunes = 280
	maxExcerptRune = 400
)

// noAnswer is what ask says when the mail does not answer the question.
const noAnswer = "No answer found in the mail."

func (r *reader) ask(ctx context.Context, args json.RawMessage) (any, error) {
	var a struct{ Question string }
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	if err := freeText("question", a.Question); err != nil {
		return nil, err
	}
	// A question that names a trip, a merchant or an issuer is answered
	// from the facts about it first.
	if ans, ok, err := r.fromFacts(ctx, a.Question); err != nil || ok {
		return ans, err
	}
	m, span, ok, err := r.find(ctx, a.Question, maxSpanRunes)
	if err != nil || !ok {
		return map[string]any{"answer": noAnswer, "sources": 0}, err
	}
	domain := senderDomain(m.From)
	// Who said it, as far as the node can tell: the display name only
	// when the domain was authenticated, and an unverified sender said so
	// in the text too, for an agent that reads only "answer".
	who := domain
	if name := senderName(m.From); m.Verified && name != "" && !injection.Addressed(name) {
		who = redact.Text(name)
	}
	if !m.Verified {
		who += ", unverified sender"
	}
	answer := span + " (" + who + ", " + m.Date.UTC().Format("2 Jan 2006") + ")"
	return map[string]any{"answer": cut(answer, maxAnswerRunes), "sources": 1,
		"sender_domain": domain, "verified_sender": m.Verified}, nil
}

// senderDomain is the domain of a message's From address, lower case.
func senderDomain(from string) string {
	a, err := mail.ParseAddress(from)
	if err != nil {
		return ""
	}
	_, domain, _ := strings.Cut(a.Address, "@")
	return strings.ToLower(domain)
}

// excerptDate is the format of get_excerpt's date: RFC 3339 in UTC.
const excerptDate = time.RFC3339

// excerptQuery decodes get_excerpt's arguments: the one reading both
// the approval's prompt and the tool use.
func excerptQuery(args json.RawMessage) (string, error) {
	var a struct{ Query string }
	if err := decode(args, &a); err != nil {
		return "", err
	}
	return a.Query, freeText("query", a.Query)
}

// excerptSubject shows the user the query get_excerpt will run, as the
// tool decodes it.
func excerptSubject(_ context.Context, _ string, args json.RawMessage) (Subject, error) {
	q, err := excerptQuery(args)
	if err != nil {
		return Subject{}, err
	}
	return Subject{Details: "query: " + q}, nil
}

func (r *reader) excerpt(ctx context.Context, args json.RawMessage) (any, error) {
	query, err := excerptQuery(args)
	if err != nil {
		return nil, err
	}
	m, span, ok, err := r.find(ctx, query, maxExcerptRune)
	if err != nil {
		return nil, err
	}
	if !ok {
		return map[string]any{"excerpt": "", "subject": "", "date": "", "found": false}, nil
	}
	subject := redact.Text(m.Subject)
	if !m.Verified {
		subject = redact.Contacts(m.Subject)
	}
	return map[string]any{
		"excerpt":         cut(span, maxExcerptRune),
		"subject":         cut(subject, 200),
		"date":            m.Date.UTC().Format(excerptDate),
		"found":           true,
		"thread":          threadRef(m.ID),
		"sender_domain":   senderDomain(m.From),
		"verified_sender": m.Verified,
	}, nil
}

func freeText(name, v string) error {
	switch {
	case strings.TrimSpace(v) == "":
		return &Error{Code: "invalid_arguments", Message: "the argument " + name + " is required"}
	case utf8.RuneCountInString(v) > 500:
		return &Error{Code: "invalid_arguments", Message: name + " is longer than 500 characters"}
	}
	return nil
}

// find retrieves the messages that best match q and picks the span that
// answers it, redacted; ok is false when retrieval is too weak to trust.
// A span from a message that announces a secret code loses every
// code-like token, not only those next to the announcement.
func (r *reader) find(ctx context.Context, q string, maxRunes int) (Message, string, bool, error) {
	question := answer.Parse(q)
	if len(question.Terms) == 0 {
		return Message{}, "", false, nil
	}
	df, n, err := r.src.TermStats(ctx, question.Terms)
	if err != nil {
		return Message{}, "", false, fmt.Errorf("retrieve mail: %w", err)
	}
	idf := make(map[string]float64, len(question.Terms))
	for _, t := range question.Terms {
		idf[t.Word] = answer.IDF(df[t.Word], n)
	}
	// Words no message holds count against every message: when they
	// weigh more than MinCoverage allows, nothing needs ranking.
	if !answer.Answerable(question, idf, df) {
		return Message{}, "", false, nil
	}
	hits, err := r.src.Retrieve(ctx, question.Terms, df, n, askDocs)
	if err != nil {
		return Message{}, "", false, fmt.Errorf("retrieve mail: %w", err)
	}
	if len(hits) == 0 {
		return Message{}, "", false, nil
	}
	docs := make([]answer.Doc, len(hits))
	for i, h := range hits {
		text, err := r.src.Text(ctx, h.ID)
		if err != nil {
			return Message{}, "", false, fmt.Errorf("read message: %w", err)
		}
		docs[i] = answer.Doc{Subject: h.Subject, Text: text}
	}
	res, ok := answer.Find(question, idf, docs, maxRunes)
	if !ok {
		return Message{}, "", false, nil
	}
	span := redact.Text(res.Span)
	if d := docs[res.Doc]; redact.AnnouncesCode(d.Subject + "\n" + d.Text) {
		span = redact.Strict(res.Span)
	}
	if !hits[res.Doc].Verified {
		// Anyone may have written it: no way to contact them goes out.
		span = redact.Contacts(span)
	}
	return hits[res.Doc], span, true, nil
}

func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
