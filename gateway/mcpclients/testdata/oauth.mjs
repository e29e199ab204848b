// Runs the official TypeScript MCP client's OAuth support
// (@modelcontextprotocol/sdk 1.32: its OAuthClientProvider and auth())
// against a node's front door, /oauth/mcp: no code of mailnode's on this
// side. Driven by gateway/mcpclients' Go test, which is the browser and
// the person:
//
//   node oauth.mjs CONFIG.json
//
// CONFIG: sdk ("v1" or "v2", as in client.mjs), url (the node's /oauth/mcp), dial (host:port to connect to: the
// node, or the relay's SNI port), ca (PEM roots), cimd (a Client ID
// Metadata Document URL, or "" to register dynamically), redirect (the
// redirect URI it registers or its document lists).
//
// It prints one JSON line per step and waits for a line on stdin between
// steps:
//  1. {"authorize": URL} — the SDK discovered the metadata from the 401,
//     registered or took its document URL as client id, and sends the
//     person to URL. stdin: the redirect URI the node sent the browser
//     back to, with the code.
//  2. {"client_id", "tools", "travel", "excerpt"} — tokens exchanged, the
//     tools listed, a structured call's result, and get_excerpt's
//     approval_required. stdin: "approved" once the phone approved.
//  3. {"excerpt", "refreshed", "after_refresh"} — get_excerpt's result,
//     whether auth() rotated the tokens, a call with the new access
//     token. stdin: "revoked" once the person revoked the client.
//  4. {"after_revoke"} — what a call then met.
import fs from 'node:fs';
import readline from 'node:readline';
import tls from 'node:tls';
const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// sdk "v1": @modelcontextprotocol/sdk 1.32 (MCP 2025-11-25); "v2":
// @modelcontextprotocol/client 2.x pinned to 2026-07-28.
const v2 = cfg.sdk === 'v2';
const { Client, StreamableHTTPClientTransport, auth } = v2
  ? await import('@modelcontextprotocol/client')
  : { ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
      ...(await import('@modelcontextprotocol/sdk/client/auth.js')) };
const newClient = () => v2
  ? new Client({ name: 'ts-client-2-oauth', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } })
  : new Client({ name: 'ts-sdk-oauth', version: '1' });

try { await fetch('data:,'); } catch {}
const Agent = globalThis[Symbol.for('undici.globalDispatcher.1')]?.constructor;
const i = cfg.dial.lastIndexOf(':');
const dispatcher = new Agent({
  connect(opts, cb) {
    let done = false;
    const s = tls.connect({ host: cfg.dial.slice(0, i), port: Number(cfg.dial.slice(i + 1)),
      servername: opts.servername || opts.hostname, ca: cfg.ca, ALPNProtocols: ['http/1.1'] });
    s.once('secureConnect', () => { if (!done) { done = true; cb(null, s); } });
    s.once('error', (err) => { if (!done) { done = true; cb(err); } });
  },
});
const dialFetch = (url, init = {}) => fetch(url, { ...init, dispatcher });

// An OAuthClientProvider kept in memory, as a hosted client keeps one per
// user in its database.
let authorizeURL = null;
const store = {};
const provider = {
  get redirectUrl() { return cfg.redirect; },
  get clientMetadata() {
    return { client_name: 'TypeScript SDK test client', redirect_uris: [cfg.redirect],
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  },
  clientMetadataUrl: cfg.cimd || undefined,
  clientInformation: () => store.client,
  saveClientInformation: (c) => { store.client = c; },
  tokens: () => store.tokens,
  saveTokens: (t) => { store.tokens = t; },
  redirectToAuthorization: (url) => { authorizeURL = String(url); },
  saveCodeVerifier: (v) => { store.verifier = v; },
  codeVerifier: () => store.verifier,
  invalidateCredentials: (scope) => {
    if (scope === 'all' || scope === 'tokens') delete store.tokens;
    if (scope === 'all' || scope === 'client') delete store.client;
  },
};

const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const next = async () => (await lines.next()).value?.trim();
const print = (o) => console.log(JSON.stringify(o));
const payload = (res) => ({ is_error: !!res.isError, text: JSON.parse(res.content[0].text), structured: res.structuredContent ?? null });
const connect = async () => {
  const client = newClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(cfg.url), { authProvider: provider, fetch: dialFetch }));
  return client;
};

try {
  // 1. The first connection meets the 401 and goes through discovery.
  const transport = new StreamableHTTPClientTransport(new URL(cfg.url), { authProvider: provider, fetch: dialFetch });
  try {
    await newClient().connect(transport);
    throw new Error('connected without authorization');
  } catch (err) {
    if (!authorizeURL) throw err;
  }
  print({ authorize: authorizeURL });
  // The browser's arrival at the redirect URI: its query, which the 2.x
  // client checks the issuer of (RFC 9207) and 1.x takes the code from.
  const callback = new URL(await next()).searchParams;
  await transport.finishAuth(v2 ? callback : callback.get('code'));

  // 2. Tools with the token.
  let client = await connect();
  const { tools } = await client.listTools();
  const travel = await client.callTool({ name: 'get_upcoming_travel', arguments: {} });
  const query = { query: 'flight to New York departure' };
  const excerpt = await client.callTool({ name: 'get_excerpt', arguments: query });
  print({ client_id: store.client?.client_id, tools: tools.length, travel: payload(travel), excerpt: payload(excerpt) });
  await next();

  // 3. The excerpt the phone approved; a refresh; a call with its token.
  const approved = await client.callTool({ name: 'get_excerpt', arguments: query });
  const before = store.tokens?.access_token;
  const result = await auth(provider, { serverUrl: new URL(cfg.url), fetchFn: dialFetch });
  const refreshed = result === 'AUTHORIZED' && store.tokens?.access_token !== before;
  await client.close().catch(() => {});
  client = await connect();
  const after = await client.callTool({ name: 'get_upcoming_travel', arguments: {} });
  print({ excerpt: payload(approved), refreshed, after_refresh: payload(after) });
  await next();

  // 4. After the person revoked the client.
  authorizeURL = null;
  let afterRevoke;
  try {
    await client.callTool({ name: 'get_upcoming_travel', arguments: {} });
    afterRevoke = 'call succeeded';
  } catch (err) {
    afterRevoke = (authorizeURL ? 'authorize again: ' : '') + String(err?.message ?? err);
  }
  print({ after_revoke: afterRevoke });
  await client.close().catch(() => {});
} catch (err) {
  print({ error: String(err?.stack ?? err) });
  process.exitCode = 1;
}
await dispatcher.close();
process.exit();
