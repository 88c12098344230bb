/**
 * The loops' idle wait (src/jobs/idle-wait.ts) over the database's wake-ups (src/db/wakeup.ts):
 * a wake-up ends a wait of 60 s at once, one that came during a claim makes the next wait return
 * at once unless the loop cleared it before claiming, and the cross-process listening is opened
 * with the first subscriber and closed with the last. Each test has a 5 s timeout, far under the
 * 60 s poll: a wait that a wake-up did not end fails it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createWakeups } from '../../src/db/wakeup.js';
import { createIdleWait } from '../../src/jobs/idle-wait.js';

const POLL_MS = 60_000;
const options = { timeout: 5_000 };

describe('idle wait', () => {
  it('a wake-up of the database ends the wait', options, async () => {
    const wakeups = createWakeups();
    const idle = createIdleWait(POLL_MS, wakeups);
    const waiting = idle.wait();
    wakeups.emit();
    await waiting;
    idle.close();
  });

  it('a wake-up while no wait is pending makes the next wait return at once; clear() forgets it', options, async () => {
    const wakeups = createWakeups();
    const idle = createIdleWait(POLL_MS, wakeups);
    wakeups.emit();
    await idle.wait();
    wakeups.emit();
    idle.clear();
    let ended = false;
    const waiting = idle.wait().then(() => (ended = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(ended, false, 'a wake-up cleared before the claim does not end the next wait');
    idle.wake();
    await waiting;
    idle.close();
  });

  it('close() stops listening: the database no longer reaches the loop', options, async () => {
    const wakeups = createWakeups();
    const idle = createIdleWait(POLL_MS, wakeups);
    idle.close();
    wakeups.emit();
    let ended = false;
    const waiting = idle.wait().then(() => (ended = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(ended, false);
    idle.wake();
    await waiting;
  });
});

describe('wake-ups', () => {
  it('open the cross-process listening with the first subscriber, close it with the last, pass its wake-ups on', async () => {
    const events: string[] = [];
    let fromServer: (() => void) | undefined;
    const wakeups = createWakeups((wake) => {
      events.push('listen');
      fromServer = wake;
      return { close: async () => void events.push('close') };
    });
    let woken = 0;
    const first = wakeups.subscribe(() => (woken += 1));
    const second = wakeups.subscribe(() => (woken += 10));
    assert.deepEqual(events, ['listen']);
    fromServer?.();
    assert.equal(woken, 11);
    first();
    assert.deepEqual(events, ['listen']);
    second();
    assert.deepEqual(events, ['listen', 'close']);
    await wakeups.close();
    assert.deepEqual(events, ['listen', 'close']);
  });
});
