/**
 * The bare-node baseline: `node:http` answering every request with one fixed small JSON body,
 * nothing else (no routing, no parsing, no logging). It is the ceiling the service is compared
 * with: the same machine, the same load generator, the same run.
 *
 * Listens on 127.0.0.1:$PORT (0 = any free port) and prints `{"port":N}` on stdout once
 * listening, which is how bench/run.ts learns the port. SIGTERM/SIGINT close it.
 */
import { createServer } from 'node:http';

const BODY = Buffer.from(JSON.stringify({ status: 'ok' }));

const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': BODY.length });
  response.end(BODY);
});

server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});

const close = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.once('SIGTERM', close);
process.once('SIGINT', close);
