/** The demo's webhook receiver: a node:http server on loopback that verifies each delivery as a customer would. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One verified delivery: the path it came to, its `webhook-id` and the event. */
export interface Delivery {
  path: string;
  id: string;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** A running receiver: its base URL, what it verified so far, the secret per path, and stop. */
export interface DemoReceiver {
  url: string;
  deliveries: Delivery[];
  /** Forged or unverifiable deliveries (answered 401). */
  rejected: number;
  trust(path: string, secret: string): void;
  /** Calls `handler` with each verified delivery to `path` (after answering it). */
  on(path: string, handler: (delivery: Delivery) => void): void;
  stop(): Promise<void>;
}

/** Starts a receiver that verifies with `standardwebhooks` against the secret registered for the path. */
export async function startReceiver(): Promise<DemoReceiver> {
  const secrets = new Map<string, string>();
  const handlers = new Map<string, (delivery: Delivery) => void>();
  const receiver: DemoReceiver = {
    url: '',
    deliveries: [],
    rejected: 0,
    trust: (path, secret) => secrets.set(path, secret),
    on: (path, handler) => handlers.set(path, handler),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const path = req.url ?? '/';
      try {
        const event = new Webhook(secrets.get(path) ?? '').verify(
          body,
          req.headers as Record<string, string>,
        ) as Delivery['event'];
        const delivery = { path, id: String(req.headers['webhook-id']), event };
        receiver.deliveries.push(delivery);
        res.writeHead(204).end();
        handlers.get(path)?.(delivery);
      } catch {
        receiver.rejected += 1;
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
