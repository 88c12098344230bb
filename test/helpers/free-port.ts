import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now (the kernel's pick for port 0, then released), for the
 * tests and the benchmark that start servers as child processes.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
