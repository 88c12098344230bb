/**
 * verifyStandardWebhook (node:crypto) decides every delivery exactly as the `standardwebhooks`
 * package's `Webhook.verify` does: a differential test over secrets, bodies (BOM, bytes that are
 * not UTF-8), signature lists, header spellings and timestamps at and past the tolerance.
 * A fixed seed (override with FC_SEED) makes every run reproducible.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { verifyStandardWebhook } from '../../src/webhooks/identity/verify.js';

const SEED = Number(process.env.FC_SEED ?? 20261121);
const NOW_S = 1_800_000_000;

/** What the package decides, as the route called it before (raw bytes, no JSON parse). */
function packageVerdict(secret: string, headers: Record<string, string>, body: Buffer | string): boolean {
  try {
    new Webhook(secret).verify(body, headers, { jsonParse: false });
    return true;
  } catch {
    return false;
  }
}

const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

const SECRETS = [
  'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  `whsec_${Buffer.from('a 24-byte key, not more!').toString('base64')}`,
  'whsec_YWJj', // 3 bytes
  'whsec_YWJjZA', // unpadded
  'whsec_YWJjZA==',
  'whsec_not base64 at all!',
  'whsec_',
];

const bodies = fc.oneof(
  fc.string().map((s) => Buffer.from(s, 'utf8')),
  fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
  fc.constant(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id":"evt_1"}')])),
  fc.constant(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])),
  fc.constant(Buffer.alloc(0)),
);

describe('Standard Webhooks verification (src/webhooks/identity/verify.ts) against the standardwebhooks package', () => {
  it('decides every delivery as the package does', (t) => {
    t.mock.method(Date, 'now', () => NOW_S * 1000 + 400);
    const delivery = fc.record({
      secret: fc.constantFrom(...SECRETS),
      signingSecret: fc.constantFrom(...SECRETS.slice(0, 6)),
      id: fc.oneof(fc.constant(''), fc.constant('msg_1'), fc.string({ minLength: 1, maxLength: 12 })),
      skew: fc.constantFrom(-301, -300, -299, 0, 299, 300, 301, 100_000),
      timestampForm: fc.constantFrom('plain', 'suffixed', 'decimal', 'empty', 'junk'),
      body: bodies,
      tamper: fc.boolean(),
      extra: fc.constantFrom('', 'v1,bm90IHRoaXMgb25l ', 'v2,abc ', 'v1 ', 'v1,a,b '),
      prefix: fc.constantFrom('webhook', 'svix'),
    });
    let accepted = 0;
    fc.assert(
      fc.property(delivery, (d) => {
        const ts = NOW_S + d.skew;
        const timestamp = { plain: `${ts}`, suffixed: `${ts}abc`, decimal: `${ts}.9`, empty: '', junk: 'soon' }[d.timestampForm];
        let signature = '';
        try {
          const content = d.body.toString('utf8');
          signature = new Webhook(d.signingSecret).sign(d.id || 'x', new Date(ts * 1000), content);
        } catch {
          signature = 'v1,invalid';
        }
        const body = d.tamper && d.body.length > 0 ? Buffer.concat([d.body, Buffer.from('!')]) : d.body;
        const headers = {
          [`${d.prefix}-id`]: d.id,
          [`${d.prefix}-timestamp`]: timestamp,
          [`${d.prefix}-signature`]: `${d.extra}${signature}`,
        };
        const canonical = { 'webhook-id': d.id, 'webhook-timestamp': timestamp, 'webhook-signature': `${d.extra}${signature}` };
        const verdict = packageVerdict(d.secret, canonical, body);
        assert.equal(verifyStandardWebhook(d.secret, request(headers), body), verdict);
        if (verdict) accepted += 1;
      }),
      { seed: SEED, numRuns: 2_000 },
    );
    assert.ok(accepted > 50, `only ${accepted} of the generated deliveries verify: the test would not see a wrong refusal`);
  });

  it('accepts a valid delivery and refuses it once stale, on the real clock', () => {
    const secret = SECRETS[2] as string;
    const body = Buffer.from('{"id":"evt_1"}');
    const sign = (at: Date) => ({
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('msg_1', at, body.toString()),
    });
    assert.equal(verifyStandardWebhook(secret, request(sign(new Date())), body), true);
    assert.equal(verifyStandardWebhook(secret, request(sign(new Date(Date.now() - 6 * 60_000))), body), false);
    assert.equal(verifyStandardWebhook(SECRETS[0] as string, request(sign(new Date())), body), false, 'another secret');
  });

  it('refuses what a lenient base64 decoder of a secret the package rejects would accept', () => {
    const secret = 'whsec_not base64 at all!';
    const lenientKey = Buffer.from('not base64 at all!', 'base64');
    const timestamp = String(Math.floor(Date.now() / 1000));
    const body = '{"id":"evt_1"}';
    const signature = createHmac('sha256', lenientKey).update(`msg_1.${timestamp}.${body}`).digest('base64');
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
    assert.equal(packageVerdict(secret, headers, body), false);
    assert.equal(verifyStandardWebhook(secret, request(headers), body), false);
  });
});
