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
// canonical arguments; an approved one is used by the first matching call
// and then spent.
//
// A blocked domain is refused before anything else and cannot create
// prompts. Duplicate calls while a request is pending return the same
// approval id and match code, so a retrying agent does not flood the user.
package approvals
