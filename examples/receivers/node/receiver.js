// A webhook receiver that checks every notification's signature before trusting it (Standard
// Webhooks, docs/api.md sections 6 and 12): `v1` (HMAC) with the `standardwebhooks` package, or
// `v1a` (Ed25519) with Node's own crypto and nothing but the instance's public key.
// Usage: WEBHOOK_SECRET=whsec_… [PORT=9000] [HOST=127.0.0.1] node receiver.js
//    or: WEBHOOK_PUBLIC_KEY=whpk_… [PORT=9000] [HOST=127.0.0.1] node receiver.js
// Each verified notification is printed to stdout as one JSON line {"webhookId", "notification"}
// and answered 204; anything else is answered 401 and said on stderr (never with the secret).
const http = require('node:http');
const { createPublicKey, verify } = require('node:crypto');
const { Webhook } = require('standardwebhooks');

const secret = process.env.WEBHOOK_SECRET ?? '';
const publicKey = process.env.WEBHOOK_PUBLIC_KEY ?? '';
const port = Number(process.env.PORT ?? 9000);
const host = process.env.HOST ?? '127.0.0.1';
// Notifications carry at most NOTIFICATION_BATCH_MAX messages; this bound only stops abuse.
const MAX_BODY_BYTES = 4 * 1024 * 1024;
// A timestamp further than this from now is refused, so that a captured request cannot be replayed.
const TOLERANCE_SECONDS = 5 * 60;

/** `v1a` (signatureScheme ed25519): one of the space-separated `v1a,<base64>` entries must be the
 * Ed25519 signature of `<webhook-id>.<webhook-timestamp>.<raw body>` under the `whpk_` public key.
 * After rotateSigningSecret two are sent (new key first) until previousValidUntil: either key works. */
function ed25519Verifier(whpk) {
  const raw = Buffer.from(whpk.slice('whpk_'.length), 'base64');
  if (raw.length !== 32) throw new Error('the public key must be whpk_ and 32 bytes in base64');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  return {
    verify(body, headers) {
      const id = headers['webhook-id'];
      const timestamp = headers['webhook-timestamp'];
      const signatures = headers['webhook-signature'];
      if (!id || !timestamp || !signatures)
        throw new Error('missing webhook-id, webhook-timestamp or webhook-signature');
      if (!/^\d+$/.test(timestamp)) throw new Error('webhook-timestamp is not a number of seconds');
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS)
        throw new Error('webhook-timestamp is more than 5 minutes away from now');
      const signed = Buffer.from(`${id}.${timestamp}.${body}`);
      const matches = String(signatures)
        .split(' ')
        .some((entry) => {
          if (!entry.startsWith('v1a,')) return false;
          try {
            return verify(null, signed, key, Buffer.from(entry.slice(4), 'base64'));
          } catch {
            return false; // a malformed signature matches nothing
          }
        });
      if (!matches) throw new Error('no signature matches');
      return JSON.parse(body);
    },
  };
}

let webhook;
if (publicKey.startsWith('whpk_')) {
  webhook = ed25519Verifier(publicKey);
} else if (secret.startsWith('whsec_')) {
  // The library also refuses a webhook-timestamp more than 5 minutes away from now (replays), and
  // accepts when any of the `v1,` signatures matches: after rotateSigningSecret, notifications carry
  // the new secret's signature and the old one's, so a receiver holding either keeps working.
  webhook = new Webhook(secret);
} else {
  process.stderr.write(
    'set WEBHOOK_SECRET to the signingSecret (whsec_…), or WEBHOOK_PUBLIC_KEY to the signingPublicKey (whpk_…), that registering the webhook answered\n',
  );
  process.exit(1);
}

function answer(res, status, text) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return answer(res, 405, 'POST only\n');
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) req.destroy();
    else chunks.push(chunk);
  });
  req.on('end', () => {
    // The signature covers the exact bytes sent: verify the raw body, never a re-serialized one.
    const body = Buffer.concat(chunks).toString('utf8');
    const webhookId = String(req.headers['webhook-id'] ?? '');
    let notification;
    try {
      notification = webhook.verify(body, req.headers);
    } catch (error) {
      process.stderr.write(`rejected ${webhookId || '(no webhook-id)'}: ${error.message}\n`);
      return answer(res, 401, 'signature not verified\n');
    }
    // Delivery is at least once: a real receiver skips a webhookId it has already processed.
    process.stdout.write(`${JSON.stringify({ webhookId, notification })}\n`);
    res.writeHead(204);
    res.end();
  });
});

server.listen(port, host, () => {
  process.stderr.write(`receiver listening on http://${host}:${server.address().port}/\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
