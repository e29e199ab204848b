// Sends a plan (apptest.Plan, JSON, the first argument) with Node's fetch
// and prints an apptest.Outcome. fetch is undici, which keeps HTTP/1.1
// connections alive; its Agent class is not exported by Node, so it is
// taken from the global dispatcher. The Agent's connector dials the plan's
// loopback address with the URL's server name (the node's name is under
// the relay's zone, which no resolver here knows) and counts connections.
import fs from 'node:fs';
import tls from 'node:tls';

const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = { status: [], conns: 0 };
const fresh = []; // the requests that had a new connection
try {
  await fetch('data:,');
} catch {}
const Agent = globalThis[Symbol.for('undici.globalDispatcher.1')]?.constructor;
if (typeof Agent !== 'function') {
  console.log(JSON.stringify({ ...out, error: 'no undici Agent in this Node' }));
  process.exit(1);
}
const i = plan.dial.lastIndexOf(':');
const host = plan.dial.slice(0, i);
const port = Number(plan.dial.slice(i + 1));
const agent = new Agent({
  // Kept idle longer than the longest gap: undici's default is 4 s.
  keepAliveTimeout: 120e3,
  keepAliveMaxTimeout: 600e3,
  // One connection: a request waits for it rather than opening another
  // while the last response is still being finished.
  connections: 1,
  connect(opts, cb) {
    out.conns++;
    fresh.push(out.status.length + 1);
    let done = false;
    const s = tls.connect({
      host, port, servername: opts.servername || opts.hostname, ca: plan.ca, ALPNProtocols: ['http/1.1'],
    });
    s.once('secureConnect', () => { if (!done) { done = true; cb(null, s); } });
    s.once('error', (err) => { if (!done) { done = true; cb(err); } });
  },
});
for (const [n, st] of plan.steps.entries()) {
  if (n > 0 && plan.gap_ms > 0) await new Promise((r) => setTimeout(r, plan.gap_ms));
  try {
    const r = await fetch(st.url, { method: st.method, headers: st.headers, body: st.body || undefined, dispatcher: agent });
    const text = await r.text();
    out.status.push(st.method === 'POST' && !text.includes('"tools"') ? 0 : r.status);
  } catch (err) {
    out.status.push(0);
    out.error ??= `request ${n + 1}: ${err} ${err.cause ?? ''}`;
  }
}
if (out.conns > 1) out.error ??= `requests ${fresh} on a new connection`;
console.log(JSON.stringify(out));
await agent.close();
