// Package mcpclients holds no code of its own: its tests run MCP clients
// that others wrote against a node, straight and through the relay, every
// request signed per the contract by a signer that others wrote too.
//
// testdata/client.mjs drives the official TypeScript SDK's client 1.x
// (@modelcontextprotocol/sdk 1.32 for 2025-11-25, and 1.22, its last
// release on 2025-06-18) and 2.x
// (@modelcontextprotocol/client, 2026-07-28), signing with the npm package
// http-message-signatures; the versions are pinned by
// testdata/package-lock.json and installed with npm ci into the user's
// cache directory on first use (internal/npmtest). They need Node.js 20
// or later (the 2.x client's engines): the machine's node where it is
// (the image has 20), else Node.js 22 from the npm registry's node
// package, installed in the same cache.
//
// testdata/oauth.mjs drives the OAuth support of the same SDK 1.32 and
// of the 2.x client (their OAuthClientProvider and auth(); 2.x also checks
// the issuer of the authorization response, RFC 9207) against the OAuth
// front door,
// /oauth/mcp, with no signer: discovery from the 401, a Client ID
// Metadata Document or Dynamic Client Registration, PKCE, the token
// exchange, tools, a refresh, and what follows the person's revocation.
// The Go test is the browser (it follows the client to the node's consent
// page) and the person (the reference phone, gateway/phone/phoneclient,
// approves); claude.ai and ChatGPT cannot be reached from here, and this
// client stands in for them.
//
// testdata/inspector pins the MCP Inspector 1.0.3, whose CLI mode
// (mcp-inspector --cli, the last major version that has one; it says
// it is deprecated for 2.x, which has none) lists and calls the tools of
// /oauth/mcp with a token the test obtained, passed as --header
// "Authorization: Bearer …". It declares Node.js 22: the test runs it on
// Node.js 22 from the npm registry's node package when the machine's is
// older (the image has 20), and puts that node first on the PATH the
// Inspector runs its CLI with. The Go SDK's client is tested in package gateway
// (TestGoSDKClient), the Go SDK of mailnode's own agents in package agent.
package mcpclients
