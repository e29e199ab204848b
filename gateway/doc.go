// Package gateway is the agents' only door into the node: TLS, RFC 9421
// signature verification, grants, then MCP over POST /mcp. Authorisation is
// one function that runs before any tool and before any retrieval. It is
// built in issue 3; nothing in the node serves agents yet.
package gateway
