/**
 * `privacyctl drp agent add|list|remove` and `privacyctl drp directory-entry --workspace W`
 * (PRODUCT §2.19: the same fields as the API), run as an operator runs them: the built
 * bin/privacyctl.js in a child process, on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.js';
import { createDatabase } from '../../../src/db/database.js';
import { openServices, type Services } from '../../../src/services.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { fixtureDrpAgent } from '../../helpers/drp-agent.js';
import { type BuiltCli, buildPrivacyctl, words } from '../../helpers/privacyctl.js';

let privacyctl: BuiltCli;
before(() => {
  privacyctl = buildPrivacyctl();
});
after(() => privacyctl.remove());

const agent = fixtureDrpAgent();

const [firstDialect] = dialects();
for (const dialect of dialects()) {
  describe(`privacyctl drp (${dialect.name})`, () => {
    let database: TestDatabase;
    const cli = (...args: string[]) =>
      privacyctl.run({ DATABASE_URL: database.url, PUBLIC_BASE_URL: 'https://privacy.acme.example' }, args);
    /** Runs `work` on the services of the test database (as the API's routes would). */
    const withServices = async <T>(work: (services: Services) => Promise<T>): Promise<T> => {
      const db = createDatabase(database.url);
      try {
        const config = loadConfig({ DATABASE_URL: database.url, PUBLIC_BASE_URL: 'https://privacy.acme.example' });
        return await work(await openServices({ config, database: db }));
      } finally {
        await db.close();
      }
    };
    const agentRows = () =>
      withServices(async (s) => (await s.drpAdmin.listAgents('*')).map((a) => [a.workspace_id, a.agent_id]));

    before(async () => {
      database = await dialect.create();
      assert.equal(cli('migrate').status, 0);
    });
    after(() => database.drop());

    it('agent add prints the registration as the API does (fingerprint, details); the same agent id again exits 1', async () => {
      const added = cli(
        ...words(
          `drp agent add --workspace acme --agent-id ${agent.agentId} --name Test --verify-key ${agent.verifyKey} --web-url https://agent.example --technical-contact drp@agent.example --confirm-with-consumer`,
        ),
      );
      assert.equal(added.status, 0, added.stderr);
      const body = JSON.parse(added.stdout) as Record<string, unknown> & { id: string; key_fingerprint: string };
      const api = await withServices((s) => s.drpAdmin.getAgent(body.id as string));
      assert.deepEqual(body, api, 'the API resource');
      assert.match(body.id, /^agt_/);
      assert.deepEqual(
        [body.agent_id, body.verify_key, body.web_url, body.technical_contact, body.confirm_with_consumer, body.disabled],
        [agent.agentId, agent.verifyKey, 'https://agent.example', 'drp@agent.example', true, false],
      );
      assert.match(body.key_fingerprint, /^[0-9a-f]{64}$/);
      const audit = await withServices((s) =>
        s.database.db.selectFrom('audit_events').select(['actor', 'action']).where('target_id', '=', body.id).execute(),
      );
      assert.deepEqual(audit, [{ actor: 'cli', action: 'drp.agent_registered' }]);
      const again = cli(
        ...words(`drp agent add --workspace acme --agent-id ${agent.agentId} --name Other --verify-key ${agent.verifyKey}`),
      );
      assert.equal(again.status, 1);
      assert.match(again.stderr, /already has a DRP agent test-agent-01/);
      assert.deepEqual(await agentRows(), [['acme', agent.agentId]]);
    });

    it('bad flags exit 2 naming each one; a hex key gets the sentence on converting it; nothing is written', async () => {
      const bad = cli(...words('drp agent add --workspace acme --agent-id bad/id --verify-key abc --confirm-with-consumer'));
      assert.equal(bad.status, 2);
      assert.equal(bad.stdout, '');
      for (const line of [/--agent-id: String should match pattern/, /--name is required/]) assert.match(bad.stderr, line);
      const hex = cli(...words(`drp agent add --workspace acme --agent-id hexed --name H --verify-key ${agent.verifyKeyHex}`));
      assert.equal(hex.status, 2);
      assert.match(hex.stderr, /^privacyctl drp: --verify-key: .*hex/m);
      assert.doesNotMatch(hex.stderr, new RegExp(agent.verifyKeyHex), 'the key is not echoed');
      assert.deepEqual(await agentRows(), [['acme', agent.agentId]]);
    });

    it('agent list shows registrations (table and --json, by workspace); remove deletes and a second remove exits 1', () => {
      const table = cli('drp', 'agent', 'list');
      assert.equal(table.status, 0, table.stderr);
      assert.match(table.stdout, /^ID\s+WORKSPACE\s+AGENT_ID\s+NAME\s+KEY_FINGERPRINT\s+PAIRED_AT\s+DISABLED\n/);
      assert.match(table.stdout, /acme\s+test-agent-01\s+Test\s+[0-9a-f]{64}\s+-\s+no\n/);
      assert.deepEqual(JSON.parse(cli(...words('drp agent list --workspace globex --json')).stdout), []);
      const listed = JSON.parse(cli(...words('drp agent list --workspace acme --json')).stdout) as { id: string }[];
      assert.equal(listed.length, 1);
      assert.deepEqual(cli('drp', 'agent', 'remove', listed[0]!.id), {
        status: 0,
        stdout: `removed ${listed[0]!.id}\n`,
        stderr: '',
      });
      assert.deepEqual(JSON.parse(cli('drp', 'agent', 'list', '--json').stdout), []);
      const again = cli('drp', 'agent', 'remove', listed[0]!.id);
      assert.equal(again.status, 1);
      assert.match(again.stderr, /no DRP agent/);
    });

    it("directory-entry prints the workspace's Business Discovery Document as the API has it; none set up exits 1", async () => {
      const none = cli(...words('drp directory-entry --workspace acme'));
      assert.equal(none.status, 1);
      assert.match(none.stderr, /workspace acme has no DRP settings/);
      const settings = await withServices((s) =>
        s.drpAdmin.putSettings(
          'acme',
          { enabled: true, business_id: 'acme-retail', name: 'Acme Retail', supported_actions: ['access', 'deletion'] },
          'test',
        ),
      );
      const printed = cli(...words('drp directory-entry --workspace acme'));
      assert.equal(printed.status, 0, printed.stderr);
      const entry = JSON.parse(printed.stdout);
      assert.deepEqual(entry, settings.directory_entry);
      assert.deepEqual(
        [entry.id, entry.api_base, entry.supported_actions, entry.supported_verifications],
        ['acme-retail', 'https://privacy.acme.example/drp', ['access', 'deletion'], ['email']],
      );
      const missing = cli('drp', 'directory-entry');
      assert.equal(missing.status, 2);
      assert.match(missing.stderr, /--workspace is required/);
    });

    // Usage and help read no database: checked on the first one only (each run is a process).
    const once = (name: string, fn: () => void) => (dialect.name === firstDialect?.name ? it(name, fn) : undefined);
    once('usage: a missing or unknown subcommand exits 2; --help at each level prints its forms', () => {
      for (const args of [['drp'], ['drp', 'agents'], ['drp', 'agent'], ['drp', 'agent', 'rename']]) {
        const result = cli(...args);
        assert.equal(result.status, 2, args.join(' '));
        assert.match(result.stderr, /usage: privacyctl drp /, args.join(' '));
      }
      const all = cli('drp', '--help');
      assert.equal(all.status, 0);
      assert.match(
        all.stdout,
        /privacyctl drp agent add .*\n.*privacyctl drp agent list .*\n.*privacyctl drp agent remove ID\n.*privacyctl drp directory-entry --workspace W\n/,
      );
      const agentHelp = cli('drp', 'agent', '--help');
      assert.equal(agentHelp.status, 0);
      assert.doesNotMatch(agentHelp.stdout, /directory-entry/);
      const addHelp = cli('drp', 'agent', 'add', '--help');
      assert.equal(addHelp.status, 0);
      assert.match(addHelp.stdout, /^usage: privacyctl drp agent add --workspace W --agent-id A/);
      assert.match(addHelp.stdout, /--confirm-with-consumer/);
      assert.doesNotMatch(addHelp.stdout, /privacyctl drp agent list/);
      const entryHelp = cli('drp', 'directory-entry', '--help');
      assert.equal(entryHelp.status, 0);
      assert.match(entryHelp.stdout, /^usage: privacyctl drp directory-entry --workspace W\n\n/);
    });
  });
}
