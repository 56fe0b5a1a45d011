import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookReceiver } from '@gw/testing';
import { Webhook } from 'standardwebhooks';
import { headersOf, loggedAttempts } from './support/delivery-fixtures';
import { tested } from './support/test-webhook';
import { Stack, until } from './support/stack';

/**
 * docs/api.md section 6 over TLS, as every production receiver is reached: notifications and tests
 * go to an https receiver whose certificate the apps trust (through NODE_EXTRA_CA_CERTS, as a
 * deployment adds a private CA), with ALLOW_HTTP_WEBHOOKS off; a receiver whose certificate nobody
 * signed is not sent anything and the attempt says TLS. Certificates are made here with openssl.
 */

/** A self-signed certificate for localhost and 127.0.0.1, and its key. */
function certificate(dir: string, name: string): { cert: string; key: string; certFile: string } {
  const certFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  const subject = ['-subj', `/CN=${name}`, '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'];
  const args = 'req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1'.split(' ');
  try {
    execFileSync('openssl', [...args, ...subject, '-keyout', keyFile, '-out', certFile], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`openssl could not make a test certificate (is it installed?): ${String(error)}`);
  }
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}

describe('delivery over https', () => {
  let dir: string;
  let stack: Stack;
  let trusted: WebhookReceiver;
  let untrusted: WebhookReceiver;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-tls-'));
    const known = certificate(dir, 'trusted-receiver');
    trusted = await WebhookReceiver.start({ tls: known });
    untrusted = await WebhookReceiver.start({ tls: certificate(dir, 'unknown-receiver') });
    stack = await Stack.start({
      // Loopback targets allowed (the receivers are local); plain http is not.
      env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', NODE_EXTRA_CA_CERTS: known.certFile, RETRY_SCHEDULE: '1' },
    });
  });
  afterAll(async () => {
    await trusted?.stop();
    await untrusted?.stop();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers a signed notification and a test to a receiver with a trusted certificate, by name and by address', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const instance = await stack.newInstance();
      const path = `/hook/${host}`;
      const { signingSecret } = await stack.webhook(instance, trusted.url(path, host));
      await stack.message(instance, { id: `tls-${host}` });
      const [notification] = await until('the notification', () => trusted.at(path).length >= 1 && trusted.at(path));
      expect(notification.json).toMatchObject({ sequence: 1, messages: [{ id: `tls-${host}` }] });
      expect(new Webhook(signingSecret).verify(notification.rawBody, headersOf(notification))).toEqual(
        notification.json,
      );
      const [attempt] = await loggedAttempts(stack, instance, 1);
      expect(attempt).toMatchObject({ status: 200, error: '' });

      expect(await tested(stack, instance)).toMatchObject({ delivered: true, status: 200, error: '' });
    }
  });

  it('sends nothing to a receiver whose certificate is not trusted, and logs a TLS failure', async () => {
    const instance = await stack.newInstance();
    await stack.webhook(instance, untrusted.url('/hook', 'localhost'));
    await stack.message(instance, { id: 'untrusted-1' });
    const [attempt] = await loggedAttempts(stack, instance, 1);
    expect(attempt).toMatchObject({ status: 0, error: expect.stringMatching(/^TLS: /) });
    expect(await tested(stack, instance)).toMatchObject({
      delivered: false,
      status: 0,
      error: expect.stringMatching(/^TLS: /),
    });
    expect(untrusted.connections).toBeGreaterThan(0);
    expect(untrusted.requests).toHaveLength(0);
  });
});
