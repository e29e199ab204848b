// Package gateway is the agents' only door into the node. A request takes
// one path through it, in this order:
//
//  1. listener.go: TLS 1.3, done before the HTTP server sees the
//     connection, within 10 s of the accept and at most 256 handshakes at
//     once per client address (package relay/connlimit);
//     server.go: the Host (one of the node's names, else 421),
//     routing (POST /mcp or /mcp/, GET /.well-known/svc-node,
//     /phone/ to package gateway/phone, the paired phones' own door, and
//     the OAuth front door's paths to package gateway/oauth; nothing
//     else, and no redirect but the authorization endpoint's back to an
//     OAuth client), a browser's Origin (403 unless the node's own) and
//     the 256 KiB body cap, answered 413 before more is read.
//  2. server.go → httpsig: the RFC 9421 signature, Content-Digest and
//     key document, then the agent's rate limits (ratelimit.go), then the
//     nonce. Any failure is a plain 401 JSON body (a rate limit: the
//     rate_limited tool payload or 429) and the request goes no further:
//     no JSON-RPC parsing, no tool, no store. A JSON-RPC batch is refused
//     whole.
//     POST /oauth/mcp (oauthmcp.go) takes the place of this step for
//     the OAuth front door: an access token (gateway/oauth) instead of
//     a signature, else 401 with its WWW-Authenticate challenge; the
//     OAuth client's identity and consent stand for an agent's domain
//     and key from here on, and every later step is the same.
//  3. mcp.go: the official MCP Go SDK, stateless with JSON responses,
//     parses JSON-RPC and dispatches. Its receiving middleware sees every
//     tools/call exactly as the SDK will run it and calls authorize.
//  4. authorize.go: the one function that decides, from the verified
//     identity, the tool's tier and the stored grants (package approvals),
//     whether the call runs. Nothing the request or any mail says can
//     change the tier of a tool or the identity of the caller. For
//     raw_read and send it also binds the approval to what the tool says
//     the call is (send_draft: the hash of the exact message) and gives
//     the tool that value with the caller (tools.Caller).
//  5. gateway/tools: the tool handlers, which are the first code to read
//     mail.
//
// The decisions behind it are in docs/gateway.md.
package gateway
