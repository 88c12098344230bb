// The console's frame: sign-in when there is no token, else the navigation and the current view.
import { useEffect, useRef, useState } from 'preact/hooks';
import { setUnauthorizedHandler } from './api/client';
import { forgetWhoAmI } from './api/whoami';
import { clearToken, saveToken, storedToken, takeNotice } from './api/session';
import { useRoute, type Route } from './lib/router';
import { AuditView } from './views/audit';
import { ConnectionsView } from './views/connections';
import { OptOutsView } from './views/opt-outs';
import { PoliciesView } from './views/policies';
import { QueueView } from './views/queue';
import { ReportView } from './views/report';
import { RequestView } from './views/request';
import { SettingsView } from './views/settings';
import { SignIn } from './views/sign-in';

const NAV: { href: string; label: string; views: Route['view'][] }[] = [
  { href: '#/queue', label: 'Queue', views: ['queue', 'request'] },
  { href: '#/opt-outs', label: 'Opt-outs', views: ['opt-outs'] },
  { href: '#/policies', label: 'Policies', views: ['policies'] },
  { href: '#/connections', label: 'Connections', views: ['connections'] },
  { href: '#/settings', label: 'Settings', views: ['settings'] },
  { href: '#/reports', label: 'Report', views: ['reports'] },
  { href: '#/audit', label: 'Audit', views: ['audit'] },
];

function CurrentView({ route }: { route: Route }) {
  switch (route.view) {
    case 'request':
      // Keyed by id: another request is a new view, never the last one's fields under its heading.
      return <RequestView key={route.id} id={route.id} />;
    case 'policies':
      return <PoliciesView />;
    case 'connections':
      return <ConnectionsView />;
    case 'audit':
      return <AuditView />;
    case 'reports':
      return <ReportView />;
    case 'settings':
      return <SettingsView />;
    case 'opt-outs':
      return <OptOutsView />;
    default:
      return <QueueView />;
  }
}

export function App() {
  const route = useRoute();
  const [token, setToken] = useState(storedToken);
  const [notice, setNotice] = useState<string | null>(takeNotice);
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      setNotice(takeNotice());
      setToken(null);
    });
  }, []);
  // A new view: move focus to its content, so keyboard and screen-reader users start there.
  useEffect(() => {
    main.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [route]);

  if (!token)
    return (
      <SignIn
        notice={notice}
        onSignedIn={(value) => {
          saveToken(value);
          forgetWhoAmI();
          setNotice(null);
          setToken(value);
          if (!location.hash) location.hash = '#/queue';
        }}
      />
    );
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">Privacy console</p>
        <nav aria-label="Console">
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={item.views.includes(route.view) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            clearToken('You signed out; the token is gone from this tab.');
            forgetWhoAmI();
            setNotice(takeNotice());
            setToken(null);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <CurrentView route={route} />
      </main>
    </>
  );
}
