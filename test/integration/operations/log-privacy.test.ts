/**
 * Privacy of the logs (issue 5, item 6; STYLE.md habit 11): the whole flow runs with logging at
 * trace level (below debug, so every debug line is in), and no token, secret, signature, email,
 * name, username or subject id it used appears in anything logged: once in-process (app and
 * worker on the app's logger, captured), once as real `privacyctl serve` and `privacyctl worker`
 * processes (their stdout and stderr whole) with the CLI around them (`token create` prints the
 * token on stdout only; `integration add`, `policy set|get`, `audit verify`).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { Logger } from 'pino';
import { startWorker } from '../../../src/jobs/start-worker.js';
import { startTestApp } from '../../helpers/app.js';
import { listeningUrl, type LoggedProcess, startLogged } from '../../helpers/child-process-logs.js';
import { dialects } from '../../helpers/databases.js';
import { captureLogs } from '../../helpers/log-capture.js';
import { assertCaptureIsReal, assertNoSensitive, fetchClient, injectClient, parseLogLines } from '../../helpers/log-privacy.js';
import { runPrivacyFlow } from '../../helpers/log-privacy-flow.js';
import { type BuiltCli, buildPrivacyctl, type CliResult, words } from '../../helpers/privacyctl.js';

const ISSUER = 'https://issuer.test/';
const AUDIENCE = 'privacy-api';
const WORKER = {
  inServer: false,
  pollMs: 20,
  leaseMs: 30_000,
  maxAttempts: 3,
  retentionSweepMs: 60_000,
  packageRetentionDays: 30,
};

/** A loopback JWKS endpoint and a signer for JWTs it verifies (as in auth-oidc.test.ts). */
async function startIssuer(): Promise<{ server: Server; env: Record<string, string>; sign(sub: string): Promise<string> }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'log-key', alg: 'RS256', use: 'sig' };
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const env = { OIDC_ISSUER: ISSUER, OIDC_AUDIENCE: AUDIENCE, OIDC_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` };
  const sign = (sub: string) =>
    new SignJWT({ scope: 'privacy:read policy:read', workspaces: '*' })
      .setProtectedHeader({ alg: 'RS256', kid: 'log-key' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(sub)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey as CryptoKey);
  return { server, env, sign };
}

function ok(result: CliResult, what: string): CliResult {
  assert.equal(result.status, 0, `${what}: ${result.stderr}`);
  return result;
}

/**
 * The CLI before `serve`: migrate, `token create` (the token on stdout, nothing else), an
 * integration added with its secret on stdin, lists that never show a secret, a policy set and
 * read. @returns the admin token, the secret and the GitHub owner it used.
 */
function cliBeforeServe(run: (args: string[], input?: string) => CliResult) {
  ok(run(['migrate']), 'migrate');
  const created = ok(run(words('token create --workspace * --scope admin --name log-privacy')), 'token create');
  assert.match(created.stdout, /^pcs_[\w-]{20,}\n$/, 'token create prints the token (only) on stdout');
  const token = created.stdout.trim();
  const approver = ok(run(words('token create --workspace * --scope admin --name approver')), 'token create').stdout.trim();
  const cliSecret = `cli-secret-${randomBytes(8).toString('hex')}`;
  const owner = `cli-owner-${randomBytes(4).toString('hex')}`;
  const add = words(`integration add --kind github --workspace ops --namespace ${owner} --secret-stdin`);
  const added = ok(run(add, cliSecret), 'integration add');
  const listed = ok(run(words('integration list --workspace ops')), 'integration list');
  const tokens = ok(run(words('token list')), 'token list');
  // stdout is the product (the integration and the list name the owner), never a secret or token.
  assert.ok(!`${added.stdout}${listed.stdout}${tokens.stdout}`.includes(cliSecret), 'the CLI shows the secret');
  assert.ok(!tokens.stdout.includes(token.slice(4)), 'token list shows the token');
  ok(run(words(`policy set --workspace ops --repository ${owner}/app --json`, '{"retention_days":7}')), 'policy set');
  ok(run(words(`policy get --workspace ops --repository ${owner}/app`)), 'policy get');
  return { token, approver, cliSecret, owner };
}

describe('log privacy', () => {
  let issuer: Awaited<ReturnType<typeof startIssuer>>;
  let cli: BuiltCli;
  before(async () => {
    issuer = await startIssuer();
    cli = buildPrivacyctl();
  });
  after(async () => {
    cli?.remove();
    await new Promise<void>((resolve) => (issuer ? issuer.server.close(() => resolve()) : resolve()));
  });

  for (const dialect of dialects()) {
    describe(dialect.name, () => {
      it('in-process: the app and the worker log nothing sensitive at trace level', { timeout: 240_000 }, async () => {
        const database = await dialect.create();
        const t = await startTestApp(database, { env: { ...issuer.env, LOG_LEVEL: 'trace' } });
        const capture = captureLogs(t.app, 'trace');
        const worker = startWorker(t.services, WORKER, t.app.log as unknown as Logger);
        try {
          const { token } = await t.services.tokens.create({ name: 'ops', scopes: ['admin'], workspaces: ['*'], actor: 'test' });
          const approver = await t.services.tokens.create({
            name: 'approver',
            scopes: ['admin'],
            workspaces: ['*'],
            actor: 'test',
          });
          const sub = `officer-${randomBytes(5).toString('hex')}`;
          const sensitive = await runPrivacyFlow({
            http: injectClient(t.app),
            adminToken: token,
            approverToken: approver.token,
            jwt: await issuer.sign(sub),
            jwtSubject: sub,
          });
          await worker.stop();
          capture.restore();
          assertCaptureIsReal(parseLogLines(capture.text()));
          assertNoSensitive(capture.text(), sensitive);
        } finally {
          await worker.stop();
          capture.restore();
          await t.close();
          await database.drop();
        }
      });

      it('child processes: serve, worker and the CLI log nothing sensitive at trace level', { timeout: 300_000 }, async () => {
        const database = await dialect.create();
        const env = { DATABASE_URL: database.url, LOG_LEVEL: 'trace' };
        const cliOutput: string[] = [];
        const run = (args: string[], input?: string) => {
          const result = cli.run(env, args, input);
          cliOutput.push(result.stderr);
          return result;
        };
        const processes: LoggedProcess[] = [];
        try {
          const { token, approver, cliSecret, owner } = cliBeforeServe(run);
          // SQLite takes one serve or worker process per file (docs/decisions.md): there the worker
          // runs inside serve during the flow, and `privacyctl worker` alone once serve has stopped.
          const sqlite = dialect.name === 'sqlite';
          const serve = startLogged(cli.bin, ['serve'], {
            ...env,
            ...issuer.env,
            HOST: '127.0.0.1',
            PORT: '0',
            WORKER_IN_SERVER: sqlite ? 'true' : 'false',
            WORKER_POLL_MS: '20',
          });
          processes.push(serve);
          if (!sqlite) processes.push(startLogged(cli.bin, ['worker'], { ...env, WORKER_POLL_MS: '20' }));
          const sub = `officer-${randomBytes(5).toString('hex')}`;
          const http = fetchClient(await listeningUrl(serve));
          const sensitive = await runPrivacyFlow({
            http,
            adminToken: token,
            approverToken: approver,
            jwt: await issuer.sign(sub),
            jwtSubject: sub,
          });
          for (const p of processes) assert.equal(await p.stop(), 0, `a process did not exit cleanly: ${p.stderr()}`);
          if (sqlite) {
            const worker = startLogged(cli.bin, ['worker'], { ...env, WORKER_POLL_MS: '20' });
            processes.push(worker);
            const deadline = Date.now() + 30_000;
            while (!worker.stdout().includes('worker started') && Date.now() < deadline)
              await new Promise((resolve) => setTimeout(resolve, 50));
            assert.equal(await worker.stop(), 0, `the worker did not exit cleanly: ${worker.stderr()}`);
          }

          const verified = ok(run(words('audit verify')), 'audit verify');
          assert.match(verified.stdout, /audit chain intact/);
          cliOutput.push(verified.stdout);
          sensitive.add('GitHub secret given to the CLI', cliSecret).add('GitHub owner given to the CLI', owner);

          // The processes print JSON log lines on stdout and nothing on stderr.
          for (const p of processes) assert.equal(p.stderr(), '', 'a process wrote to stderr');
          const entries = processes.flatMap((p) => parseLogLines(p.stdout()));
          assertCaptureIsReal(entries);
          assert.ok(
            entries.some((e) => e.msg === 'worker started'),
            'the worker process logged nothing',
          );
          assertNoSensitive([...processes.map((p) => p.stdout()), ...cliOutput].join('\n'), sensitive);
        } finally {
          for (const p of processes) await p.stop();
          await database.drop();
        }
      });
    });
  }
});
