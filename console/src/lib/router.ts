// Hash routes (`#/queue`, `#/requests/pr_…`): the server serves one page; no history API needed.
import { useEffect, useState } from 'preact/hooks';

export type Route =
  { view: 'queue' } | { view: 'request'; id: string } | { view: 'policies' } | { view: 'connections' } | { view: 'audit' };

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  const request = /^\/requests\/([^/]+)$/.exec(path);
  if (request?.[1]) return { view: 'request', id: decodeURIComponent(request[1]) };
  if (path === '/policies') return { view: 'policies' };
  if (path === '/connections') return { view: 'connections' };
  if (path === '/audit') return { view: 'audit' };
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
