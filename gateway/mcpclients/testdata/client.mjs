// Runs an official TypeScript MCP client against a node, every request
// signed per the contract (RFC 9421, docs/protocol.md "Signing rules") by
// the npm package http-message-signatures: no code of mailnode's on this
// side. Driven by gateway/mcpclients' Go test:
//
//   node client.mjs CONFIG.json
//
// CONFIG: url (the node's public /mcp URL, which is signed), dial
// (host:port to connect to: the node, or the relay's SNI port), ca (PEM
// roots), keyid (<agent-domain>#<kid>), key (the Ed25519 private key,
// PKCS#8 DER in base64), sdk ("v1": @modelcontextprotocol/sdk 1.32, which
// speaks 2025-11-25; "v1.22": the same SDK's 1.22, its last release on
// 2025-06-18; "v2": @modelcontextprotocol/client 2.x pinned to
// 2026-07-28).
//
// It lists the tools, calls get_upcoming_travel and prints one JSON line
// with what it saw, including the match code the node asks the person to
// approve; then waits for a line on stdin (the person approved), calls
// again and prints a second line with the result.
import crypto from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import tls from 'node:tls';
import { httpbis } from 'http-message-signatures';

const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const key = crypto.createPrivateKey({ key: Buffer.from(cfg.key, 'base64'), format: 'der', type: 'pkcs8' });
const seen = []; // [method, Mcp-Protocol-Version] of each request sent

// undici's Agent (Node's fetch) dialing cfg.dial with the URL's server
// name: the node's name is under the relay's zone, which no resolver here
// knows. Node does not export the class; it is the global dispatcher's.
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

// signedFetch is the fetch both SDKs are given: it adds Content-Digest
// (RFC 9530) and the signature, as any agent would in its HTTP stack.
async function signedFetch(url, init = {}) {
  const headers = {};
  new Headers(init.headers ?? {}).forEach((v, k) => { headers[k] = v; });
  const body = typeof init.body === 'string' ? init.body : init.body ? Buffer.from(await new Response(init.body).arrayBuffer()).toString() : '';
  const method = (init.method ?? 'GET').toUpperCase();
  if (method === 'POST') {
    try { seen.push([JSON.parse(body).method, headers['mcp-protocol-version'] ?? '']); } catch {}
    headers['content-digest'] = 'sha-256=:' + crypto.createHash('sha256').update(body).digest('base64') + ':';
    const now = Math.floor(Date.now() / 1000);
    const signed = await httpbis.signMessage({
      key: { id: cfg.keyid, alg: 'ed25519', sign: async (data) => crypto.sign(null, data, key) },
      name: 'sig1',
      fields: ['@method', '@target-uri', '@authority', 'content-digest'],
      params: ['created', 'expires', 'keyid', 'alg', 'nonce', 'tag'],
      paramValues: { created: new Date(now * 1000), expires: new Date((now + 120) * 1000),
        nonce: crypto.randomBytes(16).toString('base64url'), tag: 'svc-agent' },
    }, { method, url: String(url), headers });
    Object.assign(headers, signed.headers);
  }
  return fetch(url, { ...init, headers, body: init.body === undefined ? undefined : body, dispatcher, redirect: 'manual' });
}

let client, transport;
if (cfg.sdk === 'v1' || cfg.sdk === 'v1.22') {
  const pkg = cfg.sdk === 'v1' ? '@modelcontextprotocol/sdk' : 'mcp-sdk-1.22';
  const { Client } = await import(`${pkg}/client/index.js`);
  const { StreamableHTTPClientTransport } = await import(`${pkg}/client/streamableHttp.js`);
  client = new Client({ name: 'ts-sdk-1', version: '1' });
  transport = new StreamableHTTPClientTransport(new URL(cfg.url), { fetch: signedFetch });
} else {
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  client = new Client({ name: 'ts-client-2', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  transport = new StreamableHTTPClientTransport(new URL(cfg.url), { fetch: signedFetch });
}

const out = {};
try {
  await client.connect(transport);
  out.version = client.getNegotiatedProtocolVersion?.() ?? transport.protocolVersion ?? '';
  const { tools } = await client.listTools();
  out.tools = Object.fromEntries(tools.map((t) => [t.name, { output: !!t.outputSchema, annotations: t.annotations ?? null }]));
  const first = await client.callTool({ name: 'get_upcoming_travel', arguments: {} });
  out.first_is_error = !!first.isError;
  out.first = JSON.parse(first.content[0].text);
  out.seen = seen.splice(0);
  console.log(JSON.stringify(out));
} catch (err) {
  console.log(JSON.stringify({ ...out, seen, error: String(err?.stack ?? err) }));
  process.exit(1);
}

// The person approves; the Go test says so on stdin.
const rl = readline.createInterface({ input: process.stdin });
for await (const _ of rl) break;
rl.close();

const res = { };
try {
  const second = await client.callTool({ name: 'get_upcoming_travel', arguments: {} });
  res.is_error = !!second.isError;
  res.text = JSON.parse(second.content[0].text);
  res.structured = second.structuredContent ?? null;
  res.seen = seen.splice(0);
  console.log(JSON.stringify(res));
} catch (err) {
  console.log(JSON.stringify({ ...res, seen, error: String(err?.stack ?? err) }));
  process.exit(1);
}
await client.close().catch(() => {});
await dispatcher.close();
