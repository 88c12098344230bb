import type { FastifyReply } from 'fastify';
import type { EffectivePolicy } from '../../modules/policies/policy.service.js';
import { PolicySchema, PolicySourcesSchema } from '../schemas/policy.schemas.js';

/** The JSON text of a merged policy's `policy` and `sources` members, and the sources it was made from. */
interface Fragment {
  sources: EffectivePolicy['sources'];
  json: string;
}

/**
 * Keyed by the merged policy object the policy service caches and shares (frozen, see
 * policy.service.ts): a new merge is a new object, so an entry can never be stale, and it goes
 * with its object when the cache drops that.
 */
const fragments = new WeakMap<object, Fragment>();

function fragment(effective: EffectivePolicy, reply: FastifyReply): string {
  const known = fragments.get(effective.policy);
  if (known && known.sources === effective.sources) return known.json;
  const serialize = (schema: typeof PolicySchema | typeof PolicySourcesSchema, value: object) =>
    reply.compileSerializationSchema(schema)(value as Record<string, unknown>);
  const policy = serialize(PolicySchema, effective.policy);
  const sources = serialize(PolicySourcesSchema, effective.sources);
  const json = `"policy":${policy},"sources":${sources}`;
  fragments.set(effective.policy, { sources: effective.sources, json });
  return json;
}

/**
 * The 200 body of `GET /api/v1/policies/effective` (EffectivePolicyResponse), as the route's
 * response serializer would write it, byte for byte (same members in the same order, strings
 * escaped as JSON.stringify does). The `policy` and `sources` members are serialized once per
 * merged policy with the route's serializer (fast-json-stringify) and reused: serializing the
 * whole object per request cost more than the rest of the handler.
 */
export function effectivePolicyBody(effective: EffectivePolicy, reply: FastifyReply): string {
  const { workspace_id, repository, version, evaluated_at } = effective;
  return (
    `{"workspace_id":${JSON.stringify(workspace_id)},"repository":${JSON.stringify(repository)},` +
    `${fragment(effective, reply)},"version":${JSON.stringify(version)},"evaluated_at":${JSON.stringify(evaluated_at)}}`
  );
}
