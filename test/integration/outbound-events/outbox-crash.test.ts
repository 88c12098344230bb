/**
 * The transactional outbox survives a crash (issue 14, PRODUCT §2.8), on each dialect: the real
 * service (`privacyctl serve`, no in-server worker) answers 202 for filings, so their messages
 * are committed; it is then killed with SIGKILL before anything was sent. A `privacyctl worker`
 * started afterwards delivers every one of them, signed, to a receiver on loopback.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createBody } from '../../helpers/requests.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { type BuiltCli, buildPrivacyctl } from '../../helpers/privacyctl.js';
import { type ServiceProcess, startService } from '../../helpers/service-process.js';

const FILINGS = 5;

describe('outbox after kill -9', () => {
  let cli: BuiltCli;
  let server: Server;
  let base: string;
  const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  before(async () => {
    cli = buildPrivacyctl();
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.close();
    cli?.remove();
  });

  for (const dialect of dialects()) {
    describe(dialect.name, () => {
      let database: TestDatabase;
      let service: ServiceProcess | undefined;
      before(async () => {
        database = await dialect.create();
      });
      after(async () => {
        service?.kill();
        await service?.exited;
        await database.drop();
      });

      it('messages committed before SIGKILL are delivered by the next worker', { timeout: 120_000 }, async () => {
        const env = { DATABASE_URL: database.url, OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' };
        assert.equal(cli.run(env, ['migrate']).status, 0);
        const token = cli.run(env, ['token', 'create', '--workspace', 'acme', '--scope', 'privacy:write']).stdout.trim();
        const path = `/crash-${dialect.name}`;
        const added = cli.run(env, ['endpoint', 'add', '--workspace', 'acme', '--url', `${base}${path}`]);
        assert.equal(added.status, 0, added.stderr);
        const { secret } = JSON.parse(added.stdout) as { secret: string };

        service = await startService(cli.bin, { ...env, WORKER_IN_SERVER: 'false' });
        const ids: string[] = [];
        for (let i = 0; i < FILINGS; i++) {
          const res = await fetch(`${service.url}/api/v1/privacy/requests`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': 'application/json',
              'idempotency-key': `crash-${i}-key`,
            },
            body: JSON.stringify(createBody({ client_request_id: `crash-${dialect.name}-${i}` })),
          });
          assert.equal(res.status, 202);
          ids.push(((await res.json()) as { id: string }).id);
        }
        service.child.kill('SIGKILL');
        assert.equal(await service.exited, 'SIGKILL');
        service = undefined;
        const mine = () =>
          received
            .filter((r) => r.path === path && r.body.includes('privacy_request.created'))
            .map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as { data: { id: string } })
            .filter((e) => ids.includes(e.data.id));
        assert.equal(mine().length, 0, 'nothing was sent before the crash');

        const worker = spawn(process.execPath, [cli.bin, 'worker'], {
          env: { ...process.env, ...env, LOG_LEVEL: 'warn', WORKER_POLL_MS: '20' },
          stdio: 'ignore',
        });
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        try {
          // A wait, not a bound: a worker process starting beside other test files may take a while.
          const deadline = Date.now() + 120_000;
          while (mine().length < FILINGS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        } finally {
          worker.kill('SIGTERM');
          await exited;
        }
        assert.deepEqual(
          mine()
            .map((e) => e.data.id)
            .sort(),
          [...ids].sort(),
        );
      });
    });
  }
});
