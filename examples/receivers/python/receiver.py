#!/usr/bin/env python3
"""A webhook receiver that checks every notification's signature before trusting it.

Standard Webhooks, as docs/api.md sections 6 and 12 describe it, with Python's standard library only:
scheme hmac, HMAC-SHA256 over "<webhook-id>.<webhook-timestamp>.<body>", keyed with the
base64-decoded part of the signing secret after "whsec_", sent base64-encoded as "v1,<signature>"
entries separated by spaces in webhook-signature; scheme ed25519, the Ed25519 signature of the same
text under the instance's public key ("whpk_" and 32 bytes in base64), sent as "v1a,<signature>".

Usage: WEBHOOK_SECRET=whsec_... [PORT=9000] [HOST=127.0.0.1] python3 receiver.py
   or: WEBHOOK_PUBLIC_KEY=whpk_... [PORT=9000] [HOST=127.0.0.1] python3 receiver.py
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


# Ed25519 verification (RFC 8032, section 5.1.7) in pure Python: the standard library has none.
# Verifying needs no secret, so plain integer arithmetic (not constant-time) is fine here.
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    a_, b_ = (y1 - x1) * (y2 - x2) % _P, (y1 + x1) * (y2 + x2) % _P
    c_, d_ = t1 * 2 * _D * t2 % _P, z1 * 2 * z2 % _P
    e, f, g, h = b_ - a_, d_ - c_, d_ + c_, b_ + a_
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _mul(s, point):
    result = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            result = _add(result, point)
        point = _add(point, point)
        s >>= 1
    return result


def _same_point(p, q):
    return (p[0] * q[2] - q[0] * p[2]) % _P == 0 and (p[1] * q[2] - q[1] * p[2]) % _P == 0


def _recover_x(y, sign):
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P)
    if x2 % _P == 0:
        return None if sign else 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P != 0:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P != 0:
        return None
    return _P - x if (x & 1) != sign else x


def _point(encoded):
    y = int.from_bytes(encoded, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % _P)


_BASE = _point((4 * pow(5, _P - 2, _P) % _P).to_bytes(32, "little"))


def ed25519_verify(public_key, message, signature):
    """Whether `signature` (64 bytes) is the Ed25519 signature of `message` under `public_key` (32 bytes)."""
    if len(public_key) != 32 or len(signature) != 64:
        return False
    a, r = _point(public_key), _point(signature[:32])
    s = int.from_bytes(signature[32:], "little")
    if a is None or r is None or s >= _L:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public_key + message).digest(), "little") % _L
    return _same_point(_mul(s, _BASE), _add(r, _mul(h, a)))


def public_key_of(text):
    if not text.startswith("whpk_"):
        raise ValueError("the public key must start with whpk_")
    raw = base64.b64decode(text[len("whpk_"):], validate=True)
    if len(raw) != 32:
        raise ValueError("the public key must be 32 bytes")
    return raw


def _signature_matches(key, scheme, signed, entries):
    """Whether one space-separated entry matches: `v1,` HMAC under a secret, `v1a,` Ed25519 under a public key."""
    if scheme == "v1":
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
    for entry in entries.split(" "):
        version, _, signature = entry.partition(",")
        if version != scheme:
            continue
        if scheme == "v1" and hmac.compare_digest(signature.encode(), expected):
            return True
        if scheme == "v1a":
            try:
                if ed25519_verify(key, signed, base64.b64decode(signature, validate=True)):
                    return True
            except binascii.Error:
                continue
    return False


def verify(key, headers, body, now=None, scheme="v1"):
    """Returns the notification when a signature of `scheme` matches (`v1`: key is the secret's bytes;
    `v1a`: the 32-byte public key) and the timestamp is recent; raises NotVerified."""
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
    # After rotateSigningSecret a notification carries two signatures (new first, old second): any
    # one that matches is enough, so a receiver holding either secret (or public key) keeps working.
    if _signature_matches(key, scheme, signed, signatures):
        return json.loads(body)
    raise NotVerified("no signature matches")


class Receiver(BaseHTTPRequestHandler):
    key = b""
    scheme = "v1"

    def do_POST(self):
        length = int(self.headers.get("content-length") or 0)
        if length > MAX_BODY_BYTES:
            return self.answer(413, "too large\n")
        # The signature covers the exact bytes sent: verify the raw body, never a re-serialized one.
        body = self.rfile.read(length)
        headers = {name.lower(): value for name, value in self.headers.items()}
        webhook_id = headers.get("webhook-id", "")
        try:
            notification = verify(self.key, headers, body, scheme=self.scheme)
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
        if os.environ.get("WEBHOOK_PUBLIC_KEY"):
            Receiver.key, Receiver.scheme = public_key_of(os.environ["WEBHOOK_PUBLIC_KEY"]), "v1a"
        else:
            Receiver.key = signing_key(os.environ.get("WEBHOOK_SECRET", ""))
    except (ValueError, binascii.Error):
        sys.stderr.write(
            "set WEBHOOK_SECRET to the signingSecret (whsec_...), or WEBHOOK_PUBLIC_KEY to the signingPublicKey"
            " (whpk_...), that registering the webhook answered\n"
        )
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
