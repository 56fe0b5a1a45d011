// The part of sodium-native (libsodium's Node binding) this project uses; the package ships no types.
declare module 'sodium-native' {
  export const crypto_aead_xchacha20poly1305_ietf_KEYBYTES: number;
  export const crypto_aead_xchacha20poly1305_ietf_NPUBBYTES: number;
  export const crypto_aead_xchacha20poly1305_ietf_ABYTES: number;
  /** Writes ciphertext | tag into `ciphertext` (message length + ABYTES); returns the bytes written. */
  export function crypto_aead_xchacha20poly1305_ietf_encrypt(
    ciphertext: Buffer,
    message: Buffer,
    ad: Buffer | null,
    nsec: null,
    npub: Buffer,
    key: Buffer,
  ): number;
  /** Writes the message into `message` (ciphertext length - ABYTES); throws when the tag does not verify. */
  export function crypto_aead_xchacha20poly1305_ietf_decrypt(
    message: Buffer,
    nsec: null,
    ciphertext: Buffer,
    ad: Buffer | null,
    npub: Buffer,
    key: Buffer,
  ): number;
  export function randombytes_buf(buffer: Buffer): void;
}
