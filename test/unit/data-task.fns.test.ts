/** The data tasks' pure decisions (src/modules/data-systems/data-task.fns.ts) and PUBLIC_BASE_URL (src/config.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { overlapCategories, taskDueAt, withinTask } from '../../src/modules/data-systems/data-task.fns.js';

describe('data task decisions', () => {
  it('overlap: a key covers its descendants both ways; the narrower key of each pair, in scope-key order', () => {
    assert.deepEqual(overlapCategories(['user'], ['user.contact.email']), ['user.contact.email']);
    assert.deepEqual(overlapCategories(['user.contact.email'], ['user']), ['user.contact.email']);
    assert.deepEqual(overlapCategories(['user.content', 'user.contact'], ['user.name', 'user.contact']), ['user.contact']);
    assert.deepEqual(overlapCategories(['user.name', 'user.account'], ['user']), ['user.account', 'user.name']);
    assert.deepEqual(overlapCategories(['user.contact'], ['user.content']), []);
    assert.deepEqual(overlapCategories(['user.contact'], ['user.contact.email', 'user.contact']), [
      'user.contact',
      'user.contact.email',
    ]);
  });

  it('a result category must be a task category or narrower', () => {
    assert.equal(withinTask(['user.contact'], 'user.contact.email'), true);
    assert.equal(withinTask(['user.contact.email'], 'user.contact'), false);
    assert.equal(withinTask(['user.contact'], 'user.contactx'), false);
  });

  it('due date: the request’s, or created + due_days when earlier', () => {
    const created = new Date('2026-05-04T09:00:00.000Z');
    assert.equal(taskDueAt('2026-06-04T09:00:00.000Z', created, null), '2026-06-04T09:00:00.000Z');
    assert.equal(taskDueAt('2026-06-04T09:00:00.000Z', created, 10), '2026-05-14T09:00:00.000Z');
    assert.equal(taskDueAt('2026-06-04T09:00:00.000Z', created, 90), '2026-06-04T09:00:00.000Z');
  });

  it('PUBLIC_BASE_URL: http://HOST:PORT by default, a trailing slash dropped, anything but an http(s) URL refused', () => {
    assert.equal(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).worker.publicBaseUrl, 'http://0.0.0.0:9000');
    assert.equal(loadConfig({ HOST: '::1' }).worker.publicBaseUrl, 'http://[::1]:8080');
    assert.equal(
      loadConfig({ PUBLIC_BASE_URL: 'https://privacy.example.com/' }).worker.publicBaseUrl,
      'https://privacy.example.com',
    );
    for (const bad of ['ftp://x.example', 'not a url', 'https://x.example/?a=1'])
      assert.throws(
        () => loadConfig({ PUBLIC_BASE_URL: bad }),
        (e: unknown) => e instanceof ConfigError && e.problems.some((p) => p.startsWith('PUBLIC_BASE_URL')),
      );
  });
});
