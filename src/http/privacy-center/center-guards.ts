import { createHmac } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { PrivacyCenterConfig } from '../../config.js';
import { errors } from '../errors/error-catalogue.js';
import type { WindowCounter } from '../protection/window-counter.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** The privacy center's abuse checks, run before a submission is stored (PRODUCT §2.15). */
export interface CenterGuards {
  /**
   * Per client IP ({@link PrivacyCenterConfig.submissionsPerMinute}), the CAPTCHA when configured,
   * then per address ({@link PrivacyCenterConfig.codesPerHour}, keyed by an HMAC of the address,
   * never the address itself). @throws the catalogue's 429 (with Retry-After) or 422.
   */
  admit(request: FastifyRequest, body: { email: string; captcha_token?: string | undefined }): Promise<void>;
  /**
   * A submission that mails no code (the opt-out form, PRODUCT §2.18): the same per-IP limit and
   * CAPTCHA as {@link admit}, without the per-address limit on codes. @throws as {@link admit}.
   */
  admitWithoutCode(request: FastifyRequest, body: { captcha_token?: string | undefined }): Promise<void>;
}

/** Asks a Turnstile/hCaptcha `siteverify` endpoint whether `token` was solved (form POST; `{success}`). */
async function captchaSolved(url: string, secret: string, token: string, ip: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret, response: token, remoteip: ip }).toString(),
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) return false;
    const answer = (await response.json()) as { success?: unknown };
    return answer.success === true;
  } catch {
    return false;
  }
}

/** The guards for `config`, counting in `counter` (Redis when `REDIS_URL` is set, else in-process). */
export function createCenterGuards(config: PrivacyCenterConfig, counter: WindowCounter, hashKey: string): CenterGuards {
  async function limit(key: string, max: number, windowMs: number): Promise<void> {
    if (max === 0) return;
    const { count, resetMs } = await counter.hit(key, windowMs);
    if (count > max) throw errors.tooManyRequests(Math.max(1, Math.ceil(resetMs / 1000)));
  }
  async function admitWithoutCode(request: FastifyRequest, body: { captcha_token?: string | undefined }): Promise<void> {
    await limit(`pc:ip:${request.ip}`, config.submissionsPerMinute, MINUTE_MS);
    if (config.captchaVerifyUrl !== null && config.captchaSecret !== null) {
      if (body.captcha_token === undefined) throw errors.captchaMissing();
      if (!(await captchaSolved(config.captchaVerifyUrl, config.captchaSecret, body.captcha_token, request.ip))) {
        throw errors.captchaFailed();
      }
    }
  }
  return {
    admitWithoutCode,
    async admit(request, body) {
      await admitWithoutCode(request, body);
      const address = createHmac('sha256', hashKey).update(`rate:${body.email.trim().toLowerCase()}`).digest('base64url');
      await limit(`pc:email:${address}`, config.codesPerHour, HOUR_MS);
    },
  };
}

/** Whether the request carries a Global Privacy Control signal (`Sec-GPC: 1`, PRODUCT §2.18). */
export function gpcSignal(request: FastifyRequest): boolean {
  return request.headers['sec-gpc'] === '1';
}
