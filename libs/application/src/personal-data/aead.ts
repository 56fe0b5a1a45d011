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
const { crypto_aead_xchacha20poly1305_ietf_encrypt: encrypt, crypto_aead_xchacha20poly1305_ietf_decrypt: decrypt, randombytes_buf: randomFill } = sodium;

/** `nonce | ciphertext | tag` of `plaintext` under `key`, `aad` authenticated with it. */
export function aeadSeal(key: Buffer, aad: Buffer, plaintext: Buffer): Buffer {
  const sealed = Buffer.allocUnsafe(NONCE_BYTES + plaintext.length + TAG_BYTES);
  const nonce = sealed.subarray(0, NONCE_BYTES);
  randomFill(nonce);
  encrypt(sealed.subarray(NONCE_BYTES), plaintext, aad, null, nonce, key);
  return sealed;
}

/** The plaintext of a value `aeadSeal` made under `key` with `aad`; undefined when it does not
 * authenticate (altered, truncated, another key or another aad). */
export function aeadOpen(key: Buffer, aad: Buffer, sealed: Buffer): Buffer | undefined {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) return undefined;
  const plaintext = Buffer.allocUnsafe(sealed.length - NONCE_BYTES - TAG_BYTES);
  try {
    decrypt(plaintext, null, sealed.subarray(NONCE_BYTES), aad, sealed.subarray(0, NONCE_BYTES), key);
  } catch {
    return undefined;
  }
  return plaintext;
}
