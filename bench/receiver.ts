/**
 * A webhook receiver on loopback for the bench (issue 14): answers every POST 204 at once and
 * notes, per `webhook-id`, when each delivery arrived, so the delivery phase can count messages
 * received once, twice or never, and the time from commit to receipt. A POST to a path starting
 * with `/hang` is noted and never answered (issue 23: a tenant's hanging receiver) until
 * `release` drops it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  readonly url: string;
  /** Arrival times (ms since epoch) of each `webhook-id`, for the given path prefix. */
  arrivals(prefix: string): Map<string, number[]>;
  /** Drops every unanswered `/hang…` request (the deliverer sees a reset connection). */
  release(): void;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 (a free port). */
export async function startReceiver(): Promise<Receiver> {
  const byPath = new Map<string, Map<string, number[]>>();
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const at = Date.now();
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '/';
      const id = String(req.headers['webhook-id'] ?? '');
      let ids = byPath.get(path);
      if (!ids) byPath.set(path, (ids = new Map()));
      const seen = ids.get(id);
      if (seen) seen.push(at);
      else ids.set(id, [at]);
      if (path.startsWith('/hang')) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals(prefix) {
      const all = new Map<string, number[]>();
      for (const [path, ids] of byPath) if (path.startsWith(prefix)) for (const [id, times] of ids) all.set(id, times);
      return all;
    },
    release() {
      for (const res of hanging) res.socket?.destroy();
      hanging.clear();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
