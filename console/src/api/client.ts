// The console's only way to the service: plain fetch to the public API (same origin), with the
// signed-in token. Errors keep the API's own words: `{"detail": "…"}` or the 422 items.
import { clearToken, storedToken } from './session';
import type { ValidationItem } from './types';

/** A refused call: the status and the API's detail (a sentence, or the 422 items). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | ValidationItem[],
  ) {
    super(typeof detail === 'string' ? detail : detail.map((item) => item.msg).join('; '));
  }

  /** The 422 items, or none. */
  get items(): ValidationItem[] {
    return typeof this.detail === 'string' ? [] : this.detail;
  }
}

let onUnauthorized: (() => void) | null = null;

/** Called when the API answers 401: the app forgets the token and shows the sign-in page. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

/** `?a=1&b=x&b=y` from an object; empty, null and undefined values are left out. */
export function queryString(query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, String(one));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface CallOptions {
  body?: unknown;
  headers?: Record<string, string>;
  accept?: string;
}

async function refusal(response: Response): Promise<ApiError> {
  let detail: string | ValidationItem[] = `The service answered ${response.status}`;
  try {
    const body = (await response.json()) as { detail?: string | ValidationItem[] };
    if (body.detail) detail = body.detail;
  } catch {
    // not JSON: keep the status sentence
  }
  return new ApiError(response.status, detail);
}

/**
 * Calls the API and returns the raw response when it is 2xx (or 304).
 * @throws ApiError for any other status; a 401 also signs the user out.
 */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json', ...options.headers };
  const token = storedToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
    credentials: 'omit',
    cache: 'no-store',
  });
  if (response.ok) return response;
  const error = await refusal(response);
  if (response.status === 401) {
    clearToken(`The service refused the token (${error.message}). Sign in again with a valid token.`);
    onUnauthorized?.();
  }
  throw error;
}

/** {@link call} and the JSON body (undefined for 204). */
export async function api<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const response = await call(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}
