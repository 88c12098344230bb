import type { FastifyReply } from 'fastify';
import { CONSOLE_CSP } from '../console/console-csp.js';
import { gpcSignal } from './center-guards.js';
import { withGpcNotice } from './center-layout.js';

/**
 * Sends a page; to a request with `Sec-GPC: 1` with the "Opt-Out Request Honored" notice (11 CCR
 * §7025(c)(6)): every center page goes through here.
 */
export function html(reply: FastifyReply, status: number, body: string, csp = CONSOLE_CSP) {
  return reply
    .code(status)
    .header('Content-Security-Policy', csp)
    .header('Vary', 'Sec-GPC')
    .type('text/html; charset=utf-8')
    .serializer((p: string) => p)
    .send(gpcSignal(reply.request) ? withGpcNotice(body) : body);
}
