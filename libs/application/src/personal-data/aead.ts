import * as sodium from 'sodium-native';

/**
 * XChaCha20-Poly1305 (IETF), through libsodium: the AEAD that seals personal fields, one call per
 * message or ack. Node's own ciphers cost a stream object per call, which in bench d was a fifth of
 * the notifier's work per delivered message; libsodium's single call is a fraction of that. Its
 * 24-byte nonces are drawn at random for every value, which is safe at any volume under one key.
 */
export const KEY_BYTES: number = sodium.crypto_aead_xchacha20poly1305_ietf_KEYBYTES;
const NONCE_BYTES: number = sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
const TAG_BYTES: number = sodium.crypto_aead_xchacha20poly1305_ietf_ABYTES;
/** What sealing adds to a plaintext's bytes: the nonce and the tag. */
export const AEAD_OVERHEAD_BYTES = NONCE_BYTES + TAG_BYTES;
const {
  crypto_aead_xchacha20poly1305_ietf_encrypt: encrypt,
  crypto_aead_xchacha20poly1305_ietf_decrypt: decrypt,
  randombytes_buf: randomFill,
} = sodium;

/** base64url of `nonce | ciphertext | tag`: `plaintext` (UTF-8) sealed under `key`, `aad`
 * authenticated with it. */
export function aeadSeal(key: Buffer, aad: Buffer, plaintext: string): string {
  const clear = Buffer.from(plaintext, 'utf8');
  try {
    const sealed = Buffer.allocUnsafe(NONCE_BYTES + clear.length + TAG_BYTES);
    const nonce = sealed.subarray(0, NONCE_BYTES);
    randomFill(nonce);
    encrypt(sealed.subarray(NONCE_BYTES), clear, aad, null, nonce, key);
    return sealed.toString('base64url');
  } finally {
    clear.fill(0);
  }
}

/**
 * Opening decodes into buffers kept between calls (opening is synchronous, so one pair serves every
 * call), and the plaintext's bytes are wiped once they are a string: the notifier opens every
 * message it delivers. A value larger than they are (a long message body) gets buffers of its own.
 */
const SCRATCH_BYTES = 16 * 1024;
const scratchIn = Buffer.alloc(SCRATCH_BYTES);
const scratchNonce = scratchIn.subarray(0, NONCE_BYTES);
const scratchOut = Buffer.alloc(SCRATCH_BYTES);

/** The plaintext of `text.slice(start)`, a value `aeadSeal` made under `key` with `aad`; undefined
 * when it does not authenticate (altered, truncated, another key or another aad). */
export function aeadOpen(key: Buffer, aad: Buffer, text: string, start = 0): string | undefined {
  const most = Math.ceil(((text.length - start) * 3) / 4);
  const small = most <= SCRATCH_BYTES;
  const input = small ? scratchIn : Buffer.alloc(most);
  const output = small ? scratchOut : Buffer.alloc(most);
  const length = input.write(start === 0 ? text : text.slice(start), 'base64url');
  if (length < NONCE_BYTES + TAG_BYTES) return undefined;
  const clearLength = length - NONCE_BYTES - TAG_BYTES;
  try {
    decrypt(
      output.subarray(0, clearLength),
      null,
      input.subarray(NONCE_BYTES, length),
      aad,
      small ? scratchNonce : input.subarray(0, NONCE_BYTES),
      key,
    );
  } catch {
    return undefined;
  }
  const clear = output.toString('utf8', 0, clearLength);
  output.fill(0, 0, clearLength);
  return clear;
}
