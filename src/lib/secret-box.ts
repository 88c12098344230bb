import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Encrypts and decrypts integration secrets with AES-256-GCM (NIST SP 800-38D): a fresh 96-bit
 * IV per secret, the 128-bit tag authenticates. Text form: `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  /** @throws Error when the text was not sealed under this key or was altered. */
  open(sealed: string): string;
}

/** A box keyed by SHA-256 of `keyMaterial` (any string of ≥ 32 characters). */
export function createSecretBox(keyMaterial: string): SecretBox {
  const key = createHash('sha256').update(keyMaterial).digest();
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), ciphertext]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
