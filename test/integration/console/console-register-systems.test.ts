/**
 * Registering data systems in the console (PRODUCT §2.14, §2.21), in Chromium on a real store:
 * a manual system (registered, then edited), a webhook system bound to its endpoint, and a
 * PostgreSQL database registered from a pasted Fides YAML dataset against a real target; what a
 * system declares of its processing (PRODUCT §2.17: purposes, recipients, retention, source, one
 * statement a line; kept on edit, withdrawn when emptied, listed per system; a statement over 500
 * characters refused by the API at its field and line) and the third-party mark. For the database: a
 * broken reference is shown at its line of the pasted text (and selected there), the fixed
 * dataset registers, **Test** reaches the target, **Preview for a person** plans a deletion
 * without writing, and after a deletion ran, the system's last tasks show the rows masked and
 * deleted per collection. The connection URL is write-only: never on the page. No serious
 * axe-core violation and no sideways scroll at 1280 and 390 px (screenshots in .scratch/console/).
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { createTaskRunner } from '../../../src/jobs/task-runner.js';
import { createWorker } from '../../../src/jobs/worker.js';
import { startTestApp, type TestApp } from '../../helpers/app.js';
import { openChromium } from '../../helpers/chromium.js';
import { builtConsole } from '../../helpers/console-build.js';
import { checkBothWidths, signIn } from '../../helpers/console-pages.js';
import { createShopTarget, SHOP_DATASET_YAML, type ShopTarget, targetKinds } from '../../helpers/connector-targets.js';
import { dialects, type TestDatabase } from '../../helpers/databases.js';
import { silentLog } from '../../helpers/worker.js';

const postgres = (await targetKinds()).find((k) => k.kind === 'postgres');
/** The shop dataset with one reference to a field its collection does not have (line `BROKEN_LINE`). */
const BROKEN = SHOP_DATASET_YAML.replace('field: customer.id, direction: from', 'field: customer.uid, direction: from');
const BROKEN_LINE = BROKEN.split('\n').findIndex((line) => line.includes('customer.uid')) + 1;

for (const dialect of dialects()) {
  describe(`console: registering data systems (${dialect.name} store, PostgreSQL target)`, { skip: postgres?.skip }, () => {
    let database: TestDatabase;
    let t: TestApp;
    let target: ShopTarget;
    let origin: string;
    let admin: string;
    let endpointId: string;
    let browser: Browser;
    let page: Page;
    const systems = () => page.locator('section', { has: page.getByRole('heading', { name: 'Data systems' }) });
    const item = (name: string): Locator => systems().locator('li.system', { has: page.getByRole('heading', { name }) });
    const api = async (url: string) => {
      const res = await t.app.inject({ url, headers: { authorization: `Bearer ${admin}` } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const registerForm = async () => {
      await page.goto(`${origin}/console/#/connections`);
      await page.getByRole('button', { name: 'Register a data system' }).click();
      const form = page.getByRole('form', { name: 'Register a data system' });
      // The workspace is a free-text field until the token's workspaces are known (whoami), then a list.
      await form.locator('select#new-system-workspace').waitFor();
      return form;
    };

    before(async () => {
      database = await dialect.create();
      target = await createShopTarget('postgres');
      t = await startTestApp(database, {
        consoleDir: await builtConsole(),
        env: { CONNECTOR_ALLOWED_HOSTS: '127.0.0.1', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' },
      });
      admin = (await t.services.tokens.create({ name: 'Ann Officer', scopes: ['admin'], workspaces: ['acme'], actor: 'test' }))
        .token;
      const endpoint = await t.app.inject({
        method: 'POST',
        url: '/api/v1/webhook-endpoints',
        headers: { authorization: `Bearer ${admin}` },
        payload: { workspace_id: 'acme', url: 'http://127.0.0.1:9/hook', description: 'Helpdesk receiver' },
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      endpointId = endpoint.json().id;
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      browser = await openChromium();
      page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      await signIn(page, origin, admin);
    });
    after(async () => {
      await browser?.close();
      await t?.close();
      await database?.drop();
      await target?.drop();
    });

    it('registers a manual system, saying what will happen, then edits it', async () => {
      const form = await registerForm();
      await form.getByLabel('Workspace', { exact: true }).selectOption('acme');
      await form.getByLabel('Key', { exact: true }).fill('crm');
      await form.getByLabel('Name', { exact: true }).fill('CRM');
      await form.getByLabel('E-mail address (user.contact.email)').check();
      await form.getByRole('checkbox', { name: 'correction', exact: true }).uncheck();
      // What the person will read in the letter (PRODUCT §2.17): one statement a line, blank lines skipped.
      await form.getByLabel('Purposes: why it holds personal data').fill('Answering support requests\n\n  Billing disputes  ');
      await form.getByLabel('Recipients: who receives data from it').fill('Our support contractor');
      assert.match(
        await form.locator('#new-system-purposes-hint').innerText(),
        /under “Why it holds your data”\. Empty: “\[controller\] has not declared why this system holds your data\.”/,
      );
      assert.match(
        await form.locator('.notice').innerText(),
        /For every new access, export, deletion request covering E-mail address \(user\.contact\.email\): a task waits here until an operator marks it done/,
      );
      await checkBothWidths(page, `systems-register-manual-${dialect.name}`);
      await form.getByRole('button', { name: 'Register the system' }).click();
      await page.getByText('Registered CRM (crm).').waitFor();
      const crm = item('CRM');
      const declared = async (name: string) => (await item(name).locator('dl.declared').innerText()).replace(/\s+/g, ' ');
      assert.equal(
        await declared('CRM'),
        'Why it holds your data Answering support requests Billing disputes Who receives it Our support contractor ' +
          'How long it is kept not declared Where it came from not declared',
      );
      await crm.getByRole('button', { name: 'Edit' }).click();
      // Editing keeps what it declared.
      assert.equal(
        await crm.getByLabel('Purposes: why it holds personal data').inputValue(),
        'Answering support requests\nBilling disputes',
      );
      assert.equal(await crm.getByLabel('Recipients: who receives data from it').inputValue(), 'Our support contractor');
      await crm.getByLabel('Name', { exact: true }).fill('CRM (support desk)');
      await crm.getByLabel('Recipients: who receives data from it').fill(''); // withdrawn
      await crm.getByLabel('Retention: how long it keeps the data').fill('Two years after the last ticket');
      await crm.getByRole('button', { name: 'Save changes' }).click();
      await item('CRM (support desk)').waitFor();
      assert.equal(
        await declared('CRM (support desk)'),
        'Why it holds your data Answering support requests Billing disputes Who receives it not declared ' +
          'How long it is kept Two years after the last ticket Where it came from not declared',
      );
      await checkBothWidths(page, `systems-declared-${dialect.name}`);
      const [stored] = (await api('/api/v1/data-systems?workspace_id=acme')).items;
      assert.deepEqual(
        [stored.kind, stored.key, stored.name, stored.categories, stored.request_types],
        ['manual', 'crm', 'CRM (support desk)', ['user.contact.email'], ['access', 'export', 'deletion']],
      );
      assert.deepEqual(
        [stored.purposes, stored.recipients, stored.retention, stored.source, stored.third_party],
        [['Answering support requests', 'Billing disputes'], null, ['Two years after the last ticket'], null, false],
      );
    });

    it('registers a webhook system bound to an endpoint of the workspace', async () => {
      const form = await registerForm();
      await form.getByLabel('Workspace', { exact: true }).selectOption('acme');
      await form.getByLabel('Webhook', { exact: true }).check();
      await form.getByLabel('Key', { exact: true }).fill('helpdesk');
      await form.getByLabel('Name', { exact: true }).fill('Helpdesk');
      await form.getByLabel('Name (user.name)').check();
      await form.getByRole('button', { name: 'Register the system' }).click();
      await form.locator('#new-system-endpoint-error').waitFor(); // asked before anything is sent
      await form.getByLabel('Endpoint its tasks are sent to').selectOption(endpointId);
      // A statement over 500 characters: the API's 422, at its field and line; nothing stored.
      const source = form.getByLabel('Source: where its data came from');
      await source.fill(`Tickets the person opened\n${'x'.repeat(501)}`);
      await form.getByLabel(/A third party’s system/).check();
      await form.getByRole('button', { name: 'Register the system' }).click();
      const sourceError = form.locator('#new-system-source-error');
      await sourceError.waitFor();
      assert.match(await sourceError.innerText(), /^Line 2: .*500 characters/);
      assert.equal(await source.getAttribute('aria-invalid'), 'true');
      assert.match(await form.getByRole('alert').innerText(), /each is shown at its field above/);
      await checkBothWidths(page, `systems-declared-error-${dialect.name}`);
      assert.equal((await api('/api/v1/data-systems?workspace_id=acme')).items.length, 1, 'nothing stored');
      await source.fill('Tickets the person opened');
      await form.getByRole('button', { name: 'Register the system' }).click();
      await page.getByText('Registered Helpdesk (helpdesk).').waitFor();
      const helpdesk = (await api('/api/v1/data-systems?workspace_id=acme')).items.find(
        (s: { key: string }) => s.key === 'helpdesk',
      );
      assert.deepEqual(
        [helpdesk.kind, helpdesk.endpoint_id, helpdesk.source, helpdesk.purposes, helpdesk.third_party],
        ['webhook', endpointId, ['Tickets the person opened'], null, true],
      );
      const listed = await item('Helpdesk').locator('dl.declared').innerText();
      assert.match(listed, /Where it came from\s+Tickets the person opened/);
      assert.match(listed, /Why it holds your data\s+not declared/);
      assert.match(listed, /Third party\s+the personal information was sold or shared to it/);
    });

    it('registers a PostgreSQL database from a pasted YAML dataset: an error at its line, then Test', async () => {
      const form = await registerForm();
      await form.getByLabel('Workspace', { exact: true }).selectOption('acme');
      await form.getByLabel('PostgreSQL database', { exact: true }).check();
      await form.getByLabel('Key', { exact: true }).fill('shop-db');
      await form.getByLabel('Name', { exact: true }).fill('Shop database');
      await form.getByLabel('Connection URL', { exact: true }).fill(target.url);
      assert.equal(await form.getByLabel('Connection URL', { exact: true }).getAttribute('type'), 'password');
      await form.getByLabel('Dataset (Fides YAML or JSON)').fill(BROKEN);
      await form.getByRole('button', { name: 'Register the system' }).click();
      const problems = form.getByRole('list', { name: 'Problems in the dataset' });
      await problems.waitFor();
      const problem = problems.getByRole('listitem').first();
      assert.match(await problem.innerText(), new RegExp(`^Line ${BROKEN_LINE} \\(dataset\\.0\\.collections\\.1\\.fields\\.1`));
      assert.match(await problem.innerText(), /customer\.uid/);
      await problem.getByRole('button', { name: 'Show in the text' }).click();
      const selected = await page.evaluate<string>(
        '(() => { const t = document.activeElement; return t.value.slice(t.selectionStart, t.selectionEnd); })()',
      );
      assert.match(selected, /customer\.uid/, 'the place is selected in the pasted text');
      assert.ok(!(await page.content()).includes(target.password), 'the connection is never shown back');
      await checkBothWidths(page, `systems-register-dataset-error-${dialect.name}`);
      assert.equal((await api('/api/v1/data-systems?workspace_id=acme')).items.length, 2, 'nothing stored');

      await form.getByLabel('Dataset (Fides YAML or JSON)').fill(SHOP_DATASET_YAML);
      await form.getByRole('button', { name: 'Register the system' }).click();
      await page.getByText('Registered Shop database (shop-db). Test its connection').waitFor();
      const shop = item('Shop database');
      assert.match(await shop.innerText(), /PostgreSQL database/);
      assert.match(await shop.innerText(), /customer, login, orders, address, order_line, preference/);
      await shop.getByRole('button', { name: 'Test connection' }).click();
      const result = shop.getByRole('status', { name: 'Test result' });
      await result.getByText(/^Reachable in \d+ ms/).waitFor();
      assert.equal(await result.locator('tbody tr').count(), 6);
      assert.doesNotMatch(await result.locator('table').innerText(), /\bno\b/, 'every collection exists, readable and writable');
      assert.ok(!(await page.content()).includes(target.password), 'the connection is never shown back');
      await checkBothWidths(page, `systems-test-${dialect.name}`);
    });

    it('previews a deletion for a person, and after it ran shows what the erasure did', async () => {
      const shop = item('Shop database');
      await shop.getByRole('button', { name: 'Preview for a person' }).click();
      // Ada's GitHub account id, which the dataset's github_id identity field holds.
      await shop.getByLabel('Subject provider').fill('github');
      await shop.getByLabel('Subject id').fill('583231');
      await shop.getByLabel('Request type').selectOption('deletion');
      const before = await target.checksums();
      await shop.getByRole('button', { name: 'Preview statements' }).click();
      const statements = shop.locator('table.statements');
      await statements.waitFor();
      assert.match(await statements.innerText(), /UPDATE/);
      assert.doesNotMatch(await statements.innerText(), /583231/, 'placeholders, no values');
      assert.deepEqual(await target.checksums(), before, 'a preview writes nothing');
      await checkBothWidths(page, `systems-preview-${dialect.name}`);

      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/requests',
        headers: { authorization: `Bearer ${admin}`, 'idempotency-key': 'register-systems-erase-1' },
        payload: {
          request_type: 'deletion',
          scope: ['user'],
          subject_provider: 'github',
          subject_id: '583231',
          workspace_id: 'acme',
          client_request_id: 'register-systems-erase-1',
          intake_ref: 'ticket 12',
        },
      });
      assert.equal(filed.statusCode, 202, filed.body);
      const options = { pollMs: 10, leaseMs: 60_000, maxAttempts: 2 };
      const worker = createWorker({
        database: t.services.database,
        clock: t.services.clock,
        log: silentLog,
        pseudonymKey: t.services.keys.pseudonymKey,
        secretBox: t.services.secretBox,
        options,
      });
      const runner = createTaskRunner({
        database: t.services.database,
        clock: t.services.clock,
        log: silentLog,
        taskResults: t.services.taskResults,
        keys: { secretBox: t.services.secretBox, connectors: t.services.connectors, pseudonymKey: t.services.keys.pseudonymKey },
        options,
      });
      while ((await worker.runOnce()) || (await runner.runOnce()));
      const [row] = await target.admin('SELECT email FROM customer WHERE id = 1');
      assert.match(String(row?.email), /@masked\.invalid$/, 'the database was erased');

      await page.reload(); // the officer comes back to the page: it reads the tasks again
      const tasks = item('Shop database').getByRole('region', { name: 'Last tasks of Shop database' });
      await tasks.getByRole('link', { name: filed.json().id }).waitFor();
      const text = await tasks.innerText();
      assert.match(text, /completed/);
      assert.match(text, /Erasure by collection: .*customer: 1 masked/);
      assert.match(text, /preference: 1 deleted/);
      await checkBothWidths(page, `systems-last-tasks-${dialect.name}`);
    });
  });
}
