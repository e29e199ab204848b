// Reads one push request the node sent (JSON on stdin: the Authorization
// header, the body in base64url, the subscription's private key and auth
// secret the test made) and checks it with code others wrote: jose
// verifies the VAPID JWT with the key the header names (RFC 8292), http_ece
// decrypts the aes128gcm body (RFC 8188, RFC 8291). Prints the JWT's
// header and claims and the decrypted text as JSON.
import { createECDH } from "node:crypto";
import { importJWK, jwtVerify, decodeProtectedHeader } from "jose";
import ece from "http_ece";

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const req = JSON.parse(Buffer.concat(chunks).toString());

const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(req.authorization);
if (!m) throw new Error("Authorization is not 'vapid t=..., k=...': " + req.authorization);
const [, jwt, k] = m;
const point = Buffer.from(k, "base64url");
if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
const key = await importJWK({
  kty: "EC", crv: "P-256",
  x: point.subarray(1, 33).toString("base64url"),
  y: point.subarray(33).toString("base64url"),
}, "ES256");
const { payload } = await jwtVerify(jwt, key, { algorithms: ["ES256"], audience: req.audience });

const ua = createECDH("prime256v1");
ua.setPrivateKey(Buffer.from(req.ua_private, "base64url"));
const text = ece.decrypt(Buffer.from(req.body, "base64url"), {
  version: "aes128gcm",
  privateKey: ua,
  authSecret: req.auth,
});
console.log(JSON.stringify({ header: decodeProtectedHeader(jwt), claims: payload, k, text: text.toString("utf8") }));
