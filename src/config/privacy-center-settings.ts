import { type Env, readInteger } from './env-readers.js';

/** The privacy center's outside parts (PRODUCT §2.15, docs/privacy-center.md); each off until set. */
export interface PrivacyCenterConfig {
  /** `SMTP_URL` (`smtp://host:port`, `smtps://user:pass@host`) or null: mail waits in the outbox. */
  readonly smtpUrl: string | null;
  /** `SMTP_FROM`: the sender of every mail. Default `privacy@localhost`. */
  readonly smtpFrom: string;
  /** `REDIS_URL` (`redis://host:port/db`) or null: the abuse limits count in-process. */
  readonly redisUrl: string | null;
  /** `CAPTCHA_VERIFY_URL` (a Turnstile/hCaptcha `siteverify` URL) or null: no CAPTCHA. */
  readonly captchaVerifyUrl: string | null;
  /** `CAPTCHA_SECRET`, needed with `CAPTCHA_VERIFY_URL`. */
  readonly captchaSecret: string | null;
  /** `CAPTCHA_SITE_KEY`: the public key the form's widget shows (optional). */
  readonly captchaSiteKey: string | null;
  /** `PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE` (0 off, default 5): submissions per client IP. */
  readonly submissionsPerMinute: number;
  /** `PRIVACY_CENTER_CODES_PER_HOUR` (0 off, default 3): codes mailed per address. */
  readonly codesPerHour: number;
}

/** The defaults: nothing outside configured, the contract's limits. */
export const PRIVACY_CENTER_DEFAULTS: PrivacyCenterConfig = Object.freeze({
  smtpUrl: null,
  smtpFrom: 'privacy@localhost',
  redisUrl: null,
  captchaVerifyUrl: null,
  captchaSecret: null,
  captchaSiteKey: null,
  submissionsPerMinute: 5,
  codesPerHour: 3,
});

function readUrl(env: Env, name: string, schemes: RegExp, problems: string[]): string | null {
  const value = env[name] || null;
  if (value !== null && !schemes.test(value)) problems.push(`${name} must be a URL (${schemes.source})`);
  return value;
}

/** Reads the privacy center's settings; bad values are added to `problems`. */
export function readPrivacyCenter(env: Env, problems: string[]): PrivacyCenterConfig {
  const captchaVerifyUrl = readUrl(env, 'CAPTCHA_VERIFY_URL', /^https?:\/\/.+/, problems);
  const captchaSecret = env.CAPTCHA_SECRET || null;
  if (captchaVerifyUrl !== null && captchaSecret === null) problems.push('CAPTCHA_SECRET is needed with CAPTCHA_VERIFY_URL');
  return {
    smtpUrl: readUrl(env, 'SMTP_URL', /^smtps?:\/\/.+/, problems),
    smtpFrom: env.SMTP_FROM || PRIVACY_CENTER_DEFAULTS.smtpFrom,
    redisUrl: readUrl(env, 'REDIS_URL', /^rediss?:\/\/.+/, problems),
    captchaVerifyUrl,
    captchaSecret,
    captchaSiteKey: env.CAPTCHA_SITE_KEY || null,
    submissionsPerMinute: readInteger(env, 'PRIVACY_CENTER_SUBMISSIONS_PER_MINUTE', 5, 0, 100_000, problems),
    codesPerHour: readInteger(env, 'PRIVACY_CENTER_CODES_PER_HOUR', 3, 0, 100_000, problems),
  };
}
