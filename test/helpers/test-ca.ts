/**
 * A throwaway certificate authority and a server certificate it signed, made with the
 * machine's `openssl` (P-256 keys, valid two days): for TLS tests of the connectors.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM texts: the CA's certificate, and the server's certificate and key. */
export interface TestCertificates {
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
}

/**
 * @param names - the server certificate's subjectAltName entries, e.g. `IP:127.0.0.1`.
 * @throws Error with openssl's output when a step fails.
 */
export function makeTestCertificates(names: readonly string[]): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'test-ca-'));
  const openssl = (args: string[]) => {
    const result = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`openssl ${args[0]} failed: ${result.stderr}`);
  };
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Privacy service test CA']);
    openssl(['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=test-database']);
    writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=${names.join(',')}\n`);
    openssl([
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '2',
      '-extfile',
      'ext.cnf',
    ]);
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    return { caCert: read('ca.crt'), serverCert: read('server.crt'), serverKey: read('server.key') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
