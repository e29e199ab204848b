// The OpenID Connect provider of mailnode's sign-in tests (mail/oidctest):
// oidc-provider, certified by the OpenID Foundation, on loopback HTTPS.
// Its settings come from the environment the Go harness sets:
//   OIDC_ISSUER      https://127.0.0.1:<port>
//   OIDC_PORT        the port
//   OIDC_CERT, OIDC_KEY  PEM files of the server's certificate and key
//   OIDC_CLIENTS     a JSON array of client metadata (RFC 7591 names)
//   OIDC_ACCESS_TTL  access token lifetime in seconds
// It prints "listening" when it serves.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import Provider from 'oidc-provider';

const env = process.env;
const provider = new Provider(env.OIDC_ISSUER, {
  clients: JSON.parse(env.OIDC_CLIENTS),
  // Every login the interaction pages take is an account whose subject and
  // address are what was typed: the test signs in as the mailbox's user.
  findAccount: (ctx, id) => ({
    accountId: id,
    claims: () => ({ sub: id, email: id, email_verified: true }),
  }),
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  // The address goes in the ID token of the code flow, as Google's and
  // Microsoft's do, not only in the userinfo answer.
  conformIdTokenClaims: false,
  features: {
    devInteractions: { enabled: true },
    deviceFlow: { enabled: true },
    introspection: { enabled: true },
    revocation: { enabled: true },
  },
  // A refresh token for every client allowed the grant, as Microsoft
  // gives with offline_access and Google with access_type=offline.
  issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
  ttl: {
    AccessToken: Number(env.OIDC_ACCESS_TTL || 3600),
    AuthorizationCode: 60,
    DeviceCode: 600,
    IdToken: 3600,
    RefreshToken: 86400,
    Grant: 86400,
    Interaction: 600,
    Session: 86400,
  },
  cookies: { keys: ['mailnode-oidctest-cookie-key'] },
});
provider.on('server_error', (ctx, err) => console.error('server_error', err));

const server = https.createServer({ cert: readFileSync(env.OIDC_CERT), key: readFileSync(env.OIDC_KEY) }, provider.callback());
// Node closes a connection idle 5 s by default, and a Go client that
// picks that connection for a POST in the same instant gets a reset it
// does not retry (a POST is not idempotent): the token request of a test
// that waited about 5 s for a token to lapse failed so once in CI. The
// server here lives only as long as its test, so it keeps idle
// connections open and the client decides when to close them.
server.keepAliveTimeout = 0;
server.listen(Number(env.OIDC_PORT), '127.0.0.1', () => console.log('listening'));
