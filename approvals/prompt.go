package approvals

import (
	"mailnode/approvals/phoneapi"

	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Prompt is a pending request as the node sends it to a paired phone
// (docs/phone.md); its type is the phone API's.
type Prompt = phoneapi.Prompt

// Prompt returns the request's prompt. Its bytes are the same every time
// while the request is pending: nothing in it changes until a decision.
func (a Approval) Prompt() []byte {
	var also []string
	for _, t := range a.Also {
		also = append(also, string(t))
	}
	b, _ := json.Marshal(Prompt{
		ApprovalID: a.ID, Agent: a.Domain, Site: a.Site, Tool: a.Tool, Tier: string(a.Tier), AlsoTiers: also, Details: a.Details,
		MatchCode: a.MatchCode, CreatedAt: a.CreatedAt.Unix(), ExpiresAt: a.ExpiresAt.Unix(),
	})
	return b
}

// PromptHash is the SHA-256 of the request's prompt, what a phone signs.
func (a Approval) PromptHash() []byte {
	sum := sha256.Sum256(a.Prompt())
	return sum[:]
}

// Verdict is a phone's answer to a prompt.
type Verdict = phoneapi.Verdict

// Verdicts.
const (
	Approve          = phoneapi.Approve
	Deny             = phoneapi.Deny
	DenyAndBlock     = phoneapi.DenyAndBlock
	DenyAndBlockSite = phoneapi.DenyAndBlockSite
)

// ErrPromptMismatch means a decision was made over another prompt than the
// one the node built for the request: other arguments, another message,
// or a forged prompt. The request stays pending.
var ErrPromptMismatch = errors.New("the decision is for another prompt than this request's")

// Answer records a paired phone's decision on the pending request id.
// promptHash is the hash the phone signed (the caller has verified the
// signature); it must equal the hash of the prompt the node builds for the
// request now, so a decision reached over other arguments, another draft
// or an altered prompt is refused. A request can be answered once: a
// replayed decision finds it no longer pending.
func (m *Manager) Answer(ctx context.Context, id string, v Verdict, promptHash []byte) (Approval, error) {
	switch v {
	case Approve, Deny, DenyAndBlock, DenyAndBlockSite:
	default:
		return Approval{}, fmt.Errorf("answer approval: unknown verdict %q", v)
	}
	a, err := m.answer(ctx, id, v == Approve, promptHash)
	if err != nil {
		return Approval{}, err
	}
	switch v {
	case DenyAndBlock:
		if err := m.Block(ctx, a.Domain); err != nil {
			return *a, err
		}
	case DenyAndBlockSite:
		// Exactly the site the phone showed, as the request recorded it.
		key := sitePrefix + a.Site
		if a.Site == "" {
			key = m.blockKey(sitePrefix + a.Domain)
		}
		if err := m.block(ctx, key); err != nil {
			return *a, err
		}
	}
	return *a, nil
}

// answer records the decision if id is pending and promptHash is its
// prompt's.
func (m *Manager) answer(ctx context.Context, id string, approve bool, promptHash []byte) (*Approval, error) {
	if !strings.HasPrefix(id, "apr_") {
		return nil, ErrNotFound
	}
	m.slow.Lock()
	defer m.slow.Unlock()
	now := m.cfg.Now()
	a, err := m.findPending(ctx, id, now)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare(a.PromptHash(), promptHash) != 1 {
		return nil, ErrPromptMismatch
	}
	if err := m.record(ctx, a, approve, now); err != nil {
		return nil, err
	}
	return a, nil
}
