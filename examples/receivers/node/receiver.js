// A webhook receiver that checks every notification's signature before trusting it (Standard
// Webhooks, docs/api.md section 6), with the `standardwebhooks` package.
// Usage: WEBHOOK_SECRET=whsec_… [PORT=9000] [HOST=127.0.0.1] node receiver.js
// Each verified notification is printed to stdout as one JSON line {"webhookId", "notification"}
// and answered 204; anything else is answered 401 and said on stderr (never with the secret).
const http = require('node:http');
const { Webhook } = require('standardwebhooks');

const secret = process.env.WEBHOOK_SECRET ?? '';
const port = Number(process.env.PORT ?? 9000);
const host = process.env.HOST ?? '127.0.0.1';
// Notifications carry at most NOTIFICATION_BATCH_MAX messages; this bound only stops abuse.
const MAX_BODY_BYTES = 4 * 1024 * 1024;

if (!secret.startsWith('whsec_')) {
  process.stderr.write('set WEBHOOK_SECRET to the signingSecret (whsec_…) that registering the webhook answered\n');
  process.exit(1);
}
// The library also refuses a webhook-timestamp more than 5 minutes away from now (replays), and
// accepts when any of the `v1,` signatures matches: after rotateSigningSecret, notifications carry
// the new secret's signature and the old one's, so a receiver holding either keeps working.
const webhook = new Webhook(secret);

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
