import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions } from 'fastify';
import { apiSecurityHeaders } from './security-headers.js';

/** Slow-client limits, ms. */
export interface Timeouts {
  /** Time to receive a whole request, headers and body (Node `server.requestTimeout`). */
  requestTimeoutMs: number;
  /** Time to receive the request headers (Node `server.headersTimeout`); at most `requestTimeoutMs`. */
  headersTimeoutMs: number;
  /** Idle time before a keep-alive connection closes (Node `server.keepAliveTimeout`). */
  keepAliveTimeoutMs: number;
}

/**
 * How often Node checks for requests past their timeouts. Node's default (30 s) would let a
 * slow client hold a socket up to 30 s past the limit; a quarter of the headers timeout
 * (between 100 ms and 5 s) keeps the overrun small at the cost of one cheap timer.
 */
function checkingInterval(headersTimeoutMs: number): number {
  return Math.min(5_000, Math.max(100, Math.floor(headersTimeoutMs / 4)));
}

const REASONS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not received in time'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request header fields are too large'],
};

/** The security headers as raw header lines (`Name: value\r\n` each), for answers written to the socket. */
function securityHeaderLines(): string {
  return Object.entries(apiSecurityHeaders())
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
}

/**
 * Answers a connection-level client error (a request too slow, headers too large, bytes that are
 * not HTTP) with the API's error shape `{"detail": …}` (PRODUCT.md §2.1) and the security
 * headers every answer carries, then closes the socket. Replaces Fastify's default, whose body
 * has another shape.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, detail] = REASONS[error.code ?? ''] ?? [400, 'Bad Request', 'The request is not valid HTTP'];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n${securityHeaderLines()}\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * The Fastify options that bound slow clients: a request (headers and body) must arrive within
 * `requestTimeoutMs` and its headers within `headersTimeoutMs`, else Node answers 408 and closes
 * the connection (slowloris); idle keep-alive connections close after `keepAliveTimeoutMs`.
 * No socket-inactivity timeout (`connectionTimeout`): it would also cut a slow handler's answer.
 */
export function timeoutOptions(
  timeouts: Timeouts,
): Pick<FastifyHttpOptions<Server>, 'requestTimeout' | 'keepAliveTimeout' | 'http' | 'clientErrorHandler' | 'http2'> {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    http: {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: checkingInterval(timeouts.headersTimeoutMs),
    },
    clientErrorHandler,
    http2: false,
  };
}
