// Package approvals decides whether an agent may make a tool call, and
// keeps what the user decided: grants, pending approvals, blocked agents and
// an audit log of calls. The gateway asks it through Request before any tool
// runs; the local CLI (and, later, the phone) answers through Decide.
//
// The state machine, per agent domain and tier (protocol.md, "States and
// transitions"; the parts the spec leaves open are decided in
// docs/gateway.md):
//
//	no grant ──call──▶ pending ──Decide(approve)──▶ grant (tier, key)
//	                      │  └──Decide(deny)──▶ denied (for DenialHold)
//	                      └──PendingTTL──▶ expired (next call asks again)
//	grant ──Revoke or GrantTTL──▶ no grant
//	grant ──call signed by another key──▶ pending (the new key must be approved)
//
// Tiers raw_read and send never get a grant. Each call needs its own
// approval, bound to the agent's key, the tool and the hash of its
// canonical arguments and of what the tool binds it to (Call.Bind:
// send_draft's message); an approved one is used by the first matching
// call and then spent. A value the tool computes from mail (Call.Pin:
// get_excerpt's excerpt) is kept with the request and handed back when
// the approved call runs, but never used to find the request: what an
// agent is answered must not tell it anything about the mail.
//
// A blocked domain is refused before anything else and cannot create
// prompts. Duplicate calls while a request is pending return the same
// approval id and match code, so a retrying agent does not flood the user.
package approvals
