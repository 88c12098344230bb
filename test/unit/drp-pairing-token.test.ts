/**
 * Pair-wise tokens (PRODUCT §2.19 "Key setup", "Bearer token"; DRP 1.0 §2.05.1): `drp_` + 43
 * Base64url characters from 32 CSPRNG bytes, stored as SHA-256, read from `Authorization`.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { bearerPairingToken, newPairingToken, pairingTokenHash } from '../../src/modules/drp/pairing-token.fns.js';

describe('newPairingToken', () => {
  test('is drp_ + 43 Base64url characters that decode to 32 bytes', () => {
    const token = newPairingToken();
    assert.match(token, /^drp_[A-Za-z0-9_-]{43}$/);
    const bytes = Buffer.from(token.slice(4), 'base64url');
    assert.equal(bytes.length, 32);
    assert.equal(bytes.toString('base64url'), token.slice(4), 'canonical, unpadded');
  });
  test('two thousand tokens are all different, and their bits are not stuck', () => {
    const tokens = Array.from({ length: 2000 }, newPairingToken);
    assert.equal(new Set(tokens).size, tokens.length);
    const ones = tokens
      .map((t) => Buffer.from(t.slice(4), 'base64url'))
      .reduce((n, b) => n + [...b].reduce((m, x) => m + popcount(x), 0), 0);
    const share = ones / (tokens.length * 256);
    assert.ok(share > 0.49 && share < 0.51, `share of one bits ${share}`);
  });
});

function popcount(byte: number): number {
  let n = 0;
  for (let b = byte; b; b >>= 1) n += b & 1;
  return n;
}

test('pairingTokenHash is the SHA-256 of the token text, lowercase hex', () => {
  const token = newPairingToken();
  assert.equal(pairingTokenHash(token), createHash('sha256').update(token).digest('hex'));
  assert.notEqual(pairingTokenHash(token), pairingTokenHash(newPairingToken()));
});

describe('bearerPairingToken', () => {
  const token = newPairingToken();
  test('reads Bearer drp_… (scheme in any case, spaces around)', () => {
    for (const header of [`Bearer ${token}`, `bearer ${token}`, `BEARER   ${token}  `])
      assert.equal(bearerPairingToken(header), token, header);
  });
  test('anything else is null: absent, another scheme, an API token, a cut or padded token, two tokens', () => {
    for (const header of [
      undefined,
      '',
      `Basic ${token}`,
      token,
      'Bearer pcs_' + token.slice(4),
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token}=`,
      `Bearer ${token} ${token}`,
      // OSIRAA's tokens: standard Base64 of 64 random bytes, no prefix.
      `Bearer ${Buffer.alloc(64, 1).toString('base64')}`,
    ]) {
      assert.equal(bearerPairingToken(header), null, String(header));
    }
  });
});
