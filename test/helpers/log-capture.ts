/**
 * Captures what a running app logs. pino writes to its own destination (a SonicBoom on fd 1, not
 * `process.stdout.write`), so this swaps the root logger's stream and level; request loggers are
 * pino children created per request and inherit both from the root through their prototype.
 */
import type { FastifyInstance } from 'fastify';
import pino from 'pino';

export interface LogCapture {
  /** Every line written since {@link captureLogs}, as written (JSON text). */
  readonly lines: string[];
  /** All lines joined: for substring checks. */
  text(): string;
  /** Puts the original stream and level back. */
  restore(): void;
}

/** Starts capturing `app`'s log output at `level` (default `debug`). */
export function captureLogs(app: FastifyInstance, level = 'debug'): LogCapture {
  const logger = app.log as unknown as Record<symbol, unknown> & { level: string };
  const streamSym = pino.symbols.streamSym;
  const originalStream = logger[streamSym];
  const originalLevel = logger.level;
  const lines: string[] = [];
  logger[streamSym] = { write: (line: string) => void lines.push(line) };
  logger.level = level;
  return {
    lines,
    text: () => lines.join(''),
    restore: () => {
      logger[streamSym] = originalStream;
      logger.level = originalLevel;
    },
  };
}
