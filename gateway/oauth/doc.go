// Package oauth is the node's OAuth front door: the authorization server
// and the token check for /oauth/mcp, the second door to the same tools
// as the signed /mcp (docs/protocol.md, "The OAuth front door"), for the
// hosted MCP clients that authenticate as the MCP authorization
// specification (2025-11-25, 2026-07-28) says rather than by signing.
//
// The node is its own authorization server: no third party sees the
// mail or decides for the person. What it serves, on the gateway's
// listener and so through the relay as well:
//
//   - /.well-known/oauth-protected-resource/oauth/mcp (RFC 9728) and
//     /.well-known/oauth-authorization-server (RFC 8414), which advertises
//     Client ID Metadata Documents, the public-client method "none", PKCE
//     S256 only, one scope per tier and the registration endpoint;
//   - /oauth/register: Dynamic Client Registration (RFC 7591);
//   - /oauth/authorize: the authorization code grant with PKCE (S256
//     only) and the resource indicator (RFC 8707) that must name this
//     node's /oauth/mcp. The person consents on their paired phone: the
//     request becomes an approval (package approvals) like an agent's
//     first contact, with one match code that the page served here shows
//     too; the page polls and then sends the browser back to the client
//     with the code or the error, only the browser that started the
//     request (a __Host- cookie, browser.go); an invalid request is a
//     page of the node's, never a redirect;
//   - /oauth/token: code and refresh grants; /oauth/revoke (RFC 7009).
//
// A client is identified by its Client ID Metadata Document (the client
// id is an https URL whose document, fetched under the rules of agent
// key documents, package gateway/agentkeys, names that same URL) or by
// the id it was registered under. Its identity for the approvals, the
// "agent domain" every grant, block, audit entry and per-site limit
// counts by, is the client id URL's host, or a short form of the
// registered id (which has no dot, so it is never an agent domain). A
// registered id carries its registration under the node's MAC
// (registration.go): registering stores nothing. Every authorization asks
// the person again (a remembered consent would let anyone who knows the
// node's address connect their own account of a hosted client to it):
// its grant is pinned to the key "oauth:<request id>", and the tokens of
// a consent last only while a grant pinned to it does, so that revoking
// or blocking the client on the phone, the tray or the command line
// ends them at once.
//
// Codes and tokens are random, stored as their SHA-256 and never logged.
// Access tokens last an hour; refresh tokens rotate, are bound to their
// client, and reusing a spent one deletes its whole family.
package oauth
