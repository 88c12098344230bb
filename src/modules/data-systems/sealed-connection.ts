import type { SecretBox } from '../../lib/secret-box.js';
import type { ConnectionSettings } from '../connectors/connectors.js';

/**
 * Seals a database system's `connection` (AES-256-GCM, the service's secrets key): the bare URL
 * when it has no `sslrootcert` (as every system stored before it was added), JSON otherwise. A
 * URL never starts with `{`, so {@link openConnection} tells the two apart.
 */
export function sealConnection(box: SecretBox, connection: ConnectionSettings): string {
  const { url, sslrootcert } = connection;
  return box.seal(sslrootcert === undefined ? url : JSON.stringify({ url, sslrootcert }));
}

/** The stored connection, opened. @throws Error when it was not sealed under this key. */
export function openConnection(box: SecretBox, sealed: string): ConnectionSettings {
  const text = box.open(sealed);
  if (!text.startsWith('{')) return { url: text };
  const stored = JSON.parse(text) as { url: string; sslrootcert?: string };
  return stored.sslrootcert === undefined ? { url: stored.url } : { url: stored.url, sslrootcert: stored.sslrootcert };
}
