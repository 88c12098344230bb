/**
 * privacyctl's command table (src/cli/command-table.ts): `privacyctl --help` lists the usage lines
 * from the table without loading any command, so each command's own usage must be the table's,
 * and the help of every form its usage names must be there once the command is loaded.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMANDS } from '../../src/cli/command-table.js';
import { usageText } from '../../src/cli/main.js';

describe('privacyctl command table', () => {
  for (const [name, entry] of Object.entries(COMMANDS))
    it(`${name}: the loaded command has the table's usage lines, and help for each form`, async () => {
      const command = await entry.load();
      assert.deepEqual(command.usage, entry.usage);
      for (const line of command.usage) {
        const form = line
          .split(' ')
          .slice(0, 2)
          .filter((word) => /^[a-z]+$/.test(word))
          .join(' ');
        assert.ok(
          Object.keys(command.help).some((key) => key === form || form.startsWith(`${key} `) || key.startsWith(`${form} `)),
          `${name}: no help for ${form}`,
        );
      }
    });

  it('the top-level usage lists every form of every command, in the table order, then help', () => {
    const lines = usageText().split('\n');
    assert.equal(lines.length, Object.values(COMMANDS).flatMap((entry) => entry.usage).length + 1);
    assert.equal(lines.at(-1), '       privacyctl help');
    assert.equal(lines[0], 'usage: privacyctl migrate');
  });
});
