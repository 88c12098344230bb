/**
 * The service's Node flags are set where it starts (npm start, bin/privacyctl.js) and the
 * benchmark measures it with the same ones (bench/processes.ts SERVICE_NODE_FLAGS).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { SERVICE_NODE_FLAGS } from '../../bench/processes.js';

const root = new URL('../../', import.meta.url);

describe('service Node flags', () => {
  it('npm start passes the flags the benchmark measures', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: { start: string } };
    assert.equal(pkg.scripts.start, `node ${SERVICE_NODE_FLAGS.join(' ')} dist/server.js`);
  });

  it('bin/privacyctl.js passes them in its shebang', () => {
    const shebang = readFileSync(new URL('bin/privacyctl.js', root), 'utf8').split('\n')[0];
    assert.equal(shebang, `#!/usr/bin/env -S node ${SERVICE_NODE_FLAGS.join(' ')}`);
  });
});
