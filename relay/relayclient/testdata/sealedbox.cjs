// Makes testdata/sealedbox.json: anonymous sealed boxes made by libsodium's
// crypto_box_seal (the npm package libsodium-wrappers), which the node's Go
// code (golang.org/x/crypto/nacl/box) must open: TestLibsodiumSealedBoxes.
// With a Go-sealed box as argument (base64url, sealed to this file's
// public key) it also opens that one with libsodium and prints it.
//
//   npm install libsodium-wrappers@0.7.16 && node sealedbox.cjs > sealedbox.json
const s = require('libsodium-wrappers');

(async () => {
await s.ready;
const b64 = (b) => s.to_base64(b, s.base64_variants.URLSAFE_NO_PADDING);
const seed = new Uint8Array(32).map((_, i) => i + 1);
const kp = s.crypto_box_seed_keypair(seed);
if (process.argv[2]) {
  const opened = s.crypto_box_seal_open(s.from_base64(process.argv[2], s.base64_variants.URLSAFE_NO_PADDING), kp.publicKey, kp.privateKey);
  console.log(s.to_string(opened));
  process.exit(0);
}
const plaintexts = [
  '{"method":"POST","path":"/mcp","headers":{"host":"abcdefghijklmnop.relay.example"},"body":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bills_due","arguments":{}}}}',
  'x',
  'ø'.repeat(1000),
];
console.log(JSON.stringify({
  libsodium: 'libsodium ' + s.SODIUM_VERSION_STRING + ' (libsodium-wrappers 0.7.16)',
  public_key: b64(kp.publicKey),
  secret_key: b64(kp.privateKey),
  vectors: plaintexts.map((p) => ({ plaintext: p, sealed: b64(s.crypto_box_seal(s.from_string(p), kp.publicKey)) })),
}, null, 1));
})();
