/** Slow clients on a real listening server: header and request timeouts (docs/protection.md). */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { dialects, type TestDatabase } from '../helpers/databases.js';

/** A raw connection that records what the server sent and whether it closed. */
function rawClient(port: number): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let data = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (data += chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, received: () => data, closed };
}

/** Writes `text` one byte at a time, `gapMs` apart, until done or the socket closes. */
async function dribble(socket: Socket, text: string, gapMs: number): Promise<number> {
  let sent = 0;
  for (const char of text) {
    if (socket.destroyed || !socket.writable) break;
    socket.write(char);
    sent++;
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  return sent;
}

for (const dialect of dialects()) {
  describe(`slow clients (${dialect.name})`, () => {
    let database: TestDatabase;
    let t: TestApp;
    let port: number;

    before(async () => {
      database = await dialect.create();
      t = await startTestApp(database, { env: { HEADERS_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '800' } });
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as AddressInfo).port;
    });
    after(async () => {
      await t.close();
      await database.drop();
    });

    it('sets the configured timeouts on the server', () => {
      assert.equal(t.app.server.headersTimeout, 400);
      assert.equal(t.app.server.requestTimeout, 800);
      assert.equal(t.app.server.keepAliveTimeout, 72_000);
    });

    it(
      'closes a connection whose headers arrive byte by byte slower than the headers timeout, answering 408 {"detail"}, and keeps serving others',
      { timeout: 60_000 },
      async () => {
        const slow = rawClient(port);
        const headers = 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Padding: ' + 'a'.repeat(200) + '\r\n\r\n';
        const sending = dribble(slow.socket, headers, 50);
        // While the slow client dribbles, others are served.
        const other = await fetch(`http://127.0.0.1:${port}/healthz`);
        assert.equal(other.status, 200);
        await slow.closed;
        const sent = await sending;
        assert.ok(sent < headers.length, `the server closed before the headers were complete (${sent}/${headers.length})`);
        assert.match(slow.received(), /^HTTP\/1\.1 408 /);
        assert.deepEqual(Object.keys(JSON.parse(slow.received().split('\r\n\r\n')[1] ?? '{}')), ['detail']);
        assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      },
    );

    it(
      'closes a connection whose body arrives slower than the request timeout; nothing is stored',
      { timeout: 60_000 },
      async () => {
        const auth = await t.bearer(['privacy:write']);
        const before = await t.services.database.db.selectFrom('privacy_requests').select('id').execute();
        const body = JSON.stringify({
          request_type: 'access',
          scope: ['user'],
          subject_id: 'slow',
          subject_provider: 'github',
          workspace_id: 'acme',
          client_request_id: 'slow-client-0001',
          intake_ref: 'x',
        });
        const slow = rawClient(port);
        slow.socket.write(
          `POST /api/v1/privacy/requests HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${auth}\r\nIdempotency-Key: slow-client-0001\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
        );
        const sent = await dribble(slow.socket, body, 50);
        await slow.closed;
        assert.ok(sent < body.length, `closed before the body was complete (${sent}/${body.length})`);
        assert.match(slow.received(), /^HTTP\/1\.1 408 /);
        const after = await t.services.database.db.selectFrom('privacy_requests').select('id').execute();
        assert.equal(after.length, before.length);
        assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);
      },
    );
  });
}
