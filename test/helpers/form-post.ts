import type { TestApp } from './app.js';

/** POSTs `fields` to `path` as a browser's form would (`application/x-www-form-urlencoded`). */
export function postForm(t: TestApp, path: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}
