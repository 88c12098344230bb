import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';

/**
 * The day this service started honouring Global Privacy Control as an opt-out of sale and
 * sharing (issue 36): the well-known resource's `lastUpdate`. Change it when what the service
 * does with the signal changes.
 */
export const GPC_LAST_UPDATE = '2026-12-07';

/** `{"gpc": true, "lastUpdate": "YYYY-MM-DD"}` (GPC specification, §"Well-known resource"). */
export const GpcResource = Type.Object({ gpc: Type.Boolean(), lastUpdate: Type.String({ format: 'date' }) });

/**
 * `GET /.well-known/gpc.json`: the Global Privacy Control well-known resource (PRODUCT §2.18),
 * saying this site honours the signal. Public, no token.
 */
export async function gpcRoutes(app: FastifyInstance) {
  app.get('/.well-known/gpc.json', { schema: { tags: ['opt-outs'], response: { 200: GpcResource } } }, async () => ({
    gpc: true,
    lastUpdate: GPC_LAST_UPDATE,
  }));
}
