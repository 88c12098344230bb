// `npm start`'s first step (package.json `prestart`), before `npm run build`: refuses at once when
// PORT on HOST is taken, most often by a service already started, instead of rebuilding dist/
// under it for several seconds and failing only at listen. Exit 0 when the port is free, 1 with
// one sentence naming PORT otherwise. Reads HOST and PORT as the service does (defaults
// 127.0.0.1 and 8080); a value the service would refuse is left for the service to name.
import { createServer } from 'node:net';

const host = process.env.HOST || '127.0.0.1';
const port = Number(process.env.PORT || '8080');

if (Number.isInteger(port) && port > 0 && port <= 65535) {
  const probe = createServer();
  probe.once('error', (error) => {
    const reason =
      error.code === 'EADDRINUSE'
        ? `PORT ${port} on ${host} is already in use (is the service already running?); stop that process or set PORT to a free port`
        : `PORT ${port} on ${host} cannot be used (${error.code ?? 'unknown error'}); set PORT or HOST`;
    process.stderr.write(`npm start: ${reason}\n`);
    process.exit(1);
  });
  probe.listen({ host, port, exclusive: true }, () => probe.close());
}
