/**
 * DRP signed bodies (PRODUCT §2.19 "Signed bodies"; DRP 1.0 §3.07, §3.07.1): Base64 decoding,
 * verify keys (Base64 of 32 bytes; the hex form and low-order points refused), Node's own Ed25519
 * verification, parsing only after it, and the single-use digest.
 */
import assert from 'node:assert/strict';
import { createHash, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import {
  decodeSignedBody,
  keyFingerprint,
  parseSignedMessage,
  parseVerifyKey,
  signatureVerifies,
  signedMessageDigest,
  verifyKeyProblemMessage,
  type DrpVerifyKey,
} from '../../src/modules/drp/signed-body.fns.js';
import { createDrpAgent, fixtureDrpAgent, respelled, withOneByteChanged } from '../helpers/drp-agent.js';

const agent = fixtureDrpAgent();
const key = (text: string): DrpVerifyKey => {
  const parsed = parseVerifyKey(text);
  assert.ok(parsed.ok, `the key ${text} parses`);
  return parsed.key;
};
const decoded = (body: string) => {
  const result = decodeSignedBody(body);
  assert.ok(result.ok, 'the body decodes');
  return result.value;
};

describe('decodeSignedBody: standard Base64 of signature + message (libsodium combined mode)', () => {
  const body = agent.sign({ 'agent-id': agent.agentId, a: 'é' });

  test('splits the 64-byte signature from the exact signed bytes', async () => {
    const { signature, message } = decoded(body);
    assert.equal(signature.length, 64);
    assert.equal(message.toString('utf8'), '{"agent-id": "test-agent-01", "a": "\\u00e9"}');
    assert.ok(verify(null, message, createPublicKey(agent.privateKey), signature), 'Node agrees they belong together');
  });

  test('ignores ASCII whitespace around the body, and takes text or bytes, padded or not', async () => {
    const plain = decoded(body).message;
    assert.deepEqual(decoded(respelled(body)).message, plain);
    const fromBytes = decodeSignedBody(Buffer.from(`${body}\n`, 'ascii'));
    assert.ok(fromBytes.ok);
    assert.deepEqual(fromBytes.value.message, plain);
  });

  for (const [name, bad] of [
    ['empty', ''],
    ['whitespace only', ' \n '],
    ['Base64url alphabet (- and _)', Buffer.from(decoded(body).message).toString('base64url') + '-_'],
    ['whitespace inside', `${body.slice(0, 20)} ${body.slice(20)}`],
    ['a line break inside', `${body.slice(0, 76)}\n${body.slice(76)}`],
    ['incomplete padding', body.replace(/=*$/, '') + '='.repeat(((4 - (body.replace(/=*$/, '').length % 4)) % 4) + 1)],
    ['JSON sent without signing', JSON.stringify({ 'agent-id': 'x' })],
    ['a non-ASCII byte', `${body}\u00a0`],
    ['64 bytes or fewer: a signature with no message', Buffer.alloc(64, 7).toString('base64')],
  ] as const) {
    test(`refuses ${name} as body_not_base64`, async () => {
      assert.deepEqual(decodeSignedBody(bad), { ok: false, failure: { reason: 'body_not_base64' } });
    });
  }
});

describe('parseVerifyKey: standard Base64 of 32 raw bytes, nothing else', () => {
  test("the agent's Base64 key, with or without padding, parses to the same key", async () => {
    const padded = key(agent.verifyKey);
    const bare = key(agent.verifyKey.replace(/=$/, ''));
    assert.deepEqual(padded.raw, bare.raw);
    assert.equal(bare.text, agent.verifyKey, 'stored and shown padded');
    assert.equal(padded.raw.length, 32);
  });

  test('the fingerprint is the SHA-256 of the 32 raw bytes in lowercase hex', async () => {
    const parsed = key(agent.verifyKey);
    assert.equal(parsed.fingerprint, createHash('sha256').update(Buffer.from(agent.verifyKey, 'base64')).digest('hex'));
    assert.match(parsed.fingerprint, /^[0-9a-f]{64}$/);
    assert.equal(keyFingerprint(parsed.raw), parsed.fingerprint);
  });

  test("OSIRAA's own agents.json key is the 64-hex form of DRP 0.9 and is refused as such", async () => {
    // consumer-reports-innovation-lab/osiraa @151c3a8 drp_aa_mvp/agents.json, "CR_AA_DRP_ID_001".
    const osiraaDirectoryKey = 'aa3543a2fa54a9c977c416077ed28ecb651f6465f30d85fe342ab27c0b29e689';
    assert.deepEqual(parseVerifyKey(osiraaDirectoryKey), { ok: false, problem: 'hex_form' });
    assert.deepEqual(parseVerifyKey(agent.verifyKeyHex), { ok: false, problem: 'hex_form' });
    assert.match(verifyKeyProblemMessage('hex_form'), /hexadecimal form of DRP 0\.9/);
  });

  for (const [name, text] of [
    ['empty', ''],
    ['Base64url', Buffer.from(agent.verifyKey, 'base64').toString('base64url').replace(/^./, '-')],
    ['31 bytes', Buffer.alloc(31, 9).toString('base64')],
    ['33 bytes', Buffer.alloc(33, 9).toString('base64')],
    ['64 bytes (a whole signing key)', Buffer.alloc(64, 9).toString('base64')],
    ['a non-canonical last character', agent.verifyKey.replace(/.=$/, (c) => String.fromCharCode(c.charCodeAt(0) + 1) + '=')],
    ['whitespace around', ` ${agent.verifyKey}`],
    ['PEM', createPublicKey(agent.privateKey).export({ format: 'pem', type: 'spki' }).toString()],
  ] as const) {
    test(`refuses ${name}`, async () => {
      assert.deepEqual(parseVerifyKey(text), { ok: false, problem: 'not_base64_32_bytes' });
    });
  }

  test('refuses every low-order point libsodium refuses, each of which lets Node verify a forged signature', async () => {
    const identityR = Buffer.alloc(32);
    identityR[0] = 1;
    const forged = Buffer.concat([identityR, Buffer.alloc(32)]); // R = identity, S = 0: no private key involved
    const points = [
      '00'.repeat(32),
      '01' + '00'.repeat(31),
      '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
      'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
      'ec' + 'ff'.repeat(30) + '7f',
      'ed' + 'ff'.repeat(30) + '7f',
      'ee' + 'ff'.repeat(30) + '7f',
    ];
    for (const hex of points) {
      for (const signBit of [0, 0x80]) {
        const raw = Buffer.from(hex, 'hex');
        raw[31] = (raw[31] as number) | signBit;
        const nodeKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
        const accepted = Array.from({ length: 64 }, (_, i) => verify(null, Buffer.from(`message ${i}`), nodeKey, forged));
        assert.ok(accepted.some(Boolean), `${raw.toString('hex')}: Node verifies a forgery under it`);
        assert.deepEqual(parseVerifyKey(raw.toString('base64')), { ok: false, problem: 'low_order' });
      }
    }
    // A real key verifies no such forgery, and parses.
    const real = createPublicKey(agent.privateKey);
    assert.ok(!Array.from({ length: 64 }, (_, i) => verify(null, Buffer.from(`message ${i}`), real, forged)).some(Boolean));
    assert.ok(parseVerifyKey(agent.verifyKey).ok);
  });

  test('a thousand fresh key pairs all parse (no false refusal)', async () => {
    for (let i = 0; i < 1000; i += 1) {
      const x = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string;
      assert.ok(parseVerifyKey(Buffer.from(x, 'base64url').toString('base64')).ok);
    }
  });
});

describe("signatureVerifies: Node's crypto.verify over the exact bytes", () => {
  const body = agent.sign({ 'agent-id': agent.agentId, exercise: 'deletion' });

  test("verifies under the signer's key, not under another key", async () => {
    assert.equal(await signatureVerifies(decoded(body), key(agent.verifyKey)), true);
    assert.equal(await signatureVerifies(decoded(body), key(createDrpAgent('other').verifyKey)), false);
  });

  test('one byte changed anywhere in the message, or in the signature, fails', async () => {
    const verifyKey = key(agent.verifyKey);
    const length = decoded(body).message.length;
    for (let at = 0; at < length; at += 1) {
      assert.equal(await signatureVerifies(decoded(withOneByteChanged(body, at)), verifyKey), false, `byte ${at}`);
    }
    const bytes = Buffer.from(body, 'base64');
    bytes[10] = (bytes[10] as number) ^ 0x80;
    assert.equal(await signatureVerifies(decoded(bytes.toString('base64')), verifyKey), false);
  });

  test('a signature over re-serialised JSON is not one over the bytes sent (nothing is re-serialised)', async () => {
    const compact = Buffer.from('{"agent-id":"test-agent-01","exercise":"deletion"}');
    const signature = sign(null, compact, agent.privateKey);
    const spaced = Buffer.from('{"agent-id": "test-agent-01", "exercise": "deletion"}');
    const body2 = Buffer.concat([signature, spaced]).toString('base64');
    assert.equal(await signatureVerifies(decoded(body2), key(agent.verifyKey)), false);
  });
});

describe('parseSignedMessage: strict UTF-8 JSON object', () => {
  const parse = (text: string | Buffer) => parseSignedMessage(typeof text === 'string' ? Buffer.from(text) : text);
  test('an object parses with every member as sent', async () => {
    assert.deepEqual(parse('{"a": 1, "x-custom": [true]}'), { ok: true, value: { a: 1, 'x-custom': [true] } });
  });
  for (const [name, bytes] of [
    ['an array', '[1]'],
    ['a string', '"x"'],
    ['null', 'null'],
    ['invalid JSON', '{"a": }'],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
    ['a byte-order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')])],
  ] as const) {
    test(`${name} is message_not_object`, async () => {
      assert.deepEqual(parse(bytes), { ok: false, failure: { reason: 'message_not_object' } });
    });
  }
});

describe('signedMessageDigest: the single-use key', () => {
  const body = agent.sign({ 'agent-id': agent.agentId, n: 1 });
  test('is the SHA-256 (hex) of the signed message bytes', async () => {
    const { message } = decoded(body);
    assert.equal(signedMessageDigest(decoded(body)), createHash('sha256').update(message).digest('hex'));
  });
  test('the same message respelled is the same key; another message is another key', async () => {
    assert.equal(signedMessageDigest(decoded(respelled(body))), signedMessageDigest(decoded(body)));
    assert.notEqual(
      signedMessageDigest(decoded(agent.sign({ 'agent-id': agent.agentId, n: 2 }))),
      signedMessageDigest(decoded(body)),
    );
  });
});

describe('OSIRAA-signed bodies (test/fixtures/drp/osiraa-signed.json, made by Python as OSIRAA signs)', () => {
  const fixture = JSON.parse(readFileSync(new URL('../fixtures/drp/osiraa-signed.json', import.meta.url), 'utf8')) as {
    verify_key: string;
    signing_seed: string;
    agent_id: string;
    messages: { name: string; message: string; body: string }[];
  };
  const osiraa = createDrpAgent(fixture.agent_id, Buffer.from(fixture.signing_seed, 'base64'));

  test("OSIRAA's default signing key's public half is its published verify key", async () => {
    assert.equal(osiraa.verifyKey, fixture.verify_key);
  });

  for (const { name, message, body } of fixture.messages) {
    test(`${name}: verifies under OSIRAA's key, and the test agent signs the same message to the same bytes`, async () => {
      const split = decoded(body);
      assert.equal(split.message.toString('utf8'), message);
      assert.equal(await signatureVerifies(split, key(fixture.verify_key)), true);
      const parsed = parseSignedMessage(split.message);
      assert.ok(parsed.ok);
      assert.equal(osiraa.sign(parsed.value), body, 'pythonJsonDumps + Ed25519 reproduce the body byte for byte');
    });
  }
});
