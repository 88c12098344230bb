// Hash routes (`#/queue`, `#/requests/pr_…`, `#/settings`): the server serves one page; no history API needed.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { view: 'queue' }
  | { view: 'request'; id: string }
  | { view: 'policies' }
  | { view: 'connections' }
  | { view: 'audit' }
  | { view: 'reports' }
  | { view: 'settings' }
  | { view: 'opt-outs' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '').replace(/\?.*$/, '');
  const request = /^\/requests\/([^/]+)$/.exec(path);
  if (request?.[1]) return { view: 'request', id: decodeURIComponent(request[1]) };
  if (path === '/policies') return { view: 'policies' };
  if (path === '/connections') return { view: 'connections' };
  if (path === '/audit') return { view: 'audit' };
  if (path === '/reports') return { view: 'reports' };
  if (path === '/settings') return { view: 'settings' };
  if (path === '/opt-outs') return { view: 'opt-outs' };
  return { view: 'queue' };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

export const requestHref = (id: string) => `#/requests/${encodeURIComponent(id)}`;

/** The query part of the hash (`#/queue?status=open` → `status=open`): a view's filters, kept on reload. */
export function hashParams(): URLSearchParams {
  const i = location.hash.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : location.hash.slice(i + 1));
}

/** Replaces the hash's query without a new history entry or a hashchange (the view already shows it). */
export function setHashParams(params: URLSearchParams): void {
  const base = location.hash.replace(/\?.*$/, '') || '#/queue';
  const text = params.toString();
  history.replaceState(null, '', `${location.pathname}${location.search}${base}${text ? `?${text}` : ''}`);
}
