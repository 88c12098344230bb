import type { PrivacyCenterConfig } from '../../config/privacy-center-settings.js';
import { createMailer } from '../../modules/privacy-center/mailer.js';
import type { WindowCounter } from '../protection/window-counter.js';

/** How long one probe's answer is reused, ms: /readyz is polled often, SMTP greets slowly. */
const PROBE_CACHE_MS = 10_000;

/**
 * The privacy center's optional outside parts (PRODUCT §2.15), probed for /readyz and at start:
 * each configured part that does not answer is named (`"smtp unreachable: …"`). Requests still
 * succeed without them (mail waits in the outbox; limits count in-process), so they degrade
 * readiness without failing it. Names only the part and the host, never credentials.
 */
export function createCenterHealth(config: PrivacyCenterConfig, counter: WindowCounter): () => Promise<string[]> {
  let cached: { at: number; problems: string[] } | null = null;
  const mailer = config.smtpUrl ? createMailer(config.smtpUrl, config.smtpFrom) : null;
  const host = (url: string) => {
    const u = new URL(url);
    return `${u.hostname}:${u.port}`;
  };
  return async () => {
    if (cached && Date.now() - cached.at < PROBE_CACHE_MS) return cached.problems;
    const problems: string[] = [];
    if (config.redisUrl && !(await counter.ready())) {
      problems.push(`redis unreachable (${host(config.redisUrl)}): abuse limits count in this process only`);
    }
    if (mailer && config.smtpUrl && !(await mailer.verify())) {
      problems.push(`smtp unreachable (${host(config.smtpUrl)}): mail waits in the outbox`);
    }
    cached = { at: Date.now(), problems };
    return problems;
  };
}
