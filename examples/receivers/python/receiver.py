#!/usr/bin/env python3
"""A webhook receiver that checks every notification's signature before trusting it.

Standard Webhooks, as docs/api.md section 6 describes it, with Python's standard library only:
HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>", keyed with the base64-decoded part of
the signing secret after "whsec_", sent base64-encoded as "v1,<signature>" entries separated by
spaces in webhook-signature.

Usage: WEBHOOK_SECRET=whsec_... [PORT=9000] [HOST=127.0.0.1] python3 receiver.py
Each verified notification is printed to stdout as one JSON line {"webhookId", "notification"} and
answered 204; anything else is answered 401 and said on stderr (never with the secret).
"""
import base64
import binascii
import hashlib
import hmac
import json
import os
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# A timestamp further than this from now is refused, so that a captured request cannot be replayed.
TOLERANCE_SECONDS = 5 * 60
MAX_BODY_BYTES = 4 * 1024 * 1024


class NotVerified(Exception):
    pass


def signing_key(secret):
    if not secret.startswith("whsec_"):
        raise ValueError("the secret must start with whsec_")
    return base64.b64decode(secret[len("whsec_"):], validate=True)


def verify(key, headers, body, now=None):
    """Returns the notification when a v1 signature matches and the timestamp is recent; raises NotVerified."""
    webhook_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not webhook_id or not timestamp or not signatures:
        raise NotVerified("missing webhook-id, webhook-timestamp or webhook-signature")
    if not timestamp.isdigit():
        raise NotVerified("webhook-timestamp is not a number of seconds")
    now = time.time() if now is None else now
    if abs(now - int(timestamp)) > TOLERANCE_SECONDS:
        raise NotVerified("webhook-timestamp is more than 5 minutes away from now")
    signed = webhook_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    # After rotateSigningSecret a notification carries two signatures (new first, old second): any
    # one that matches is enough, so a receiver holding either secret keeps working.
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature.encode(), expected):
            return json.loads(body)
    raise NotVerified("no signature matches")


class Receiver(BaseHTTPRequestHandler):
    key = b""

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        if length > MAX_BODY_BYTES:
            return self.answer(413, "too large\n")
        # The signature covers the exact bytes sent: verify the raw body, never a re-serialized one.
        body = self.rfile.read(length)
        headers = {name.lower(): value for name, value in self.headers.items()}
        webhook_id = headers.get("webhook-id", "")
        try:
            notification = verify(self.key, headers, body)
        except (NotVerified, ValueError) as error:
            sys.stderr.write(f"rejected {webhook_id or '(no webhook-id)'}: {error}\n")
            return self.answer(401, "signature not verified\n")
        # Delivery is at least once: a real receiver skips a webhookId it has already processed.
        sys.stdout.write(json.dumps({"webhookId": webhook_id, "notification": notification}) + "\n")
        sys.stdout.flush()
        self.send_response(204)
        self.end_headers()

    def answer(self, status, text):
        data = text.encode()
        self.send_response(status)
        self.send_header("content-type", "text/plain; charset=utf-8")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format, *args):
        pass  # one line per notification on stdout is enough; refusals go to stderr above


def main():
    try:
        Receiver.key = signing_key(os.environ.get("WEBHOOK_SECRET", ""))
    except (ValueError, binascii.Error):
        sys.stderr.write("set WEBHOOK_SECRET to the signingSecret (whsec_...) that registering the webhook answered\n")
        return 1
    host = os.environ.get("HOST", "127.0.0.1")
    server = ThreadingHTTPServer((host, int(os.environ.get("PORT", "9000"))), Receiver)
    sys.stderr.write(f"receiver listening on http://{host}:{server.server_address[1]}/\n")
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
