/** The hot-path timestamp source: same text as toTimestamp(clock()), formatted once per millisecond. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { timestampSource, toTimestamp } from '../../src/lib/clock.js';

describe('timestampSource', () => {
  test('follows the clock: equal to toTimestamp(clock()) at every read, also when the clock goes back', () => {
    const times = [0, 0, 1, 999, 1_000, 1_000, 500, 1_764_000_000_123, 1_764_000_000_123, 1_764_000_000_124];
    let i = 0;
    const read = timestampSource(() => new Date(times[i]!));
    for (; i < times.length; i++) assert.equal(read(), toTimestamp(new Date(times[i]!)), `read ${i}`);
  });

  test('formats only when the millisecond changed', () => {
    let ms = 5;
    let formatted = 0;
    const clock = () => {
      const date = new Date(ms);
      const own = date.toISOString.bind(date);
      date.toISOString = () => {
        formatted += 1;
        return own();
      };
      return date;
    };
    const read = timestampSource(clock);
    assert.equal(read(), '1970-01-01T00:00:00.005Z');
    assert.equal(read(), '1970-01-01T00:00:00.005Z');
    assert.equal(formatted, 1);
    ms = 6;
    assert.equal(read(), '1970-01-01T00:00:00.006Z');
    assert.equal(formatted, 2);
  });
});
