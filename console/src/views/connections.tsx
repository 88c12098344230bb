// Connections (PRODUCT.md §2b): integrations (webhook sources) and webhook endpoints, with each
// endpoint's messages, a retry per message and secret rotation; data systems (data-systems.tsx).
// All of it needs scope admin: a token without it is told so in one sentence, never shown the
// API's 403 three times (PRODUCT §2.21).
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { Endpoint, EndpointList, EndpointWithSecret, IntegrationList, MessageList } from '../api/types';
import { hasScope, useWhoAmI } from '../api/whoami';
import { DataSystems } from './data-systems';
import { ErrorText, Field, Section, useSubmit } from '../components/forms';
import { formatTime } from '../lib/deadline';
import { requestHref } from '../lib/router';

const endpointPath = (id: string) => `/api/v1/webhook-endpoints/${encodeURIComponent(id)}`;

function Integrations({ workspace }: { workspace: string }) {
  const [list, setList] = useState<IntegrationList | null>(null);
  const load = useSubmit();
  useEffect(() => {
    void load.run(async () =>
      setList(await api<IntegrationList>('GET', `/api/v1/integrations${queryString({ workspace_id: workspace })}`)),
    );
  }, [workspace]);
  return (
    <Section title="Integrations">
      <ErrorText error={load.error} />
      {list && list.items.length === 0 && <p>No integration yet (added with privacyctl integration add).</p>}
      {list && list.items.length > 0 && (
        <ul class="plain">
          {list.items.map((item) => (
            <li key={item.id}>
              <strong>{item.kind}</strong> {item.namespace ? `for ${item.namespace} ` : ''}
              {item.format ? `(${item.format}) ` : ''}in {item.workspace_id}: receives at <code>{item.webhook_path}</code>, since{' '}
              {formatTime(item.created_at)}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Messages({ endpoint }: { endpoint: Endpoint }) {
  const [list, setList] = useState<MessageList | null>(null);
  const [done, setDone] = useState('');
  const load = useSubmit();
  const retry = useSubmit();
  const refresh = () =>
    load.run(async () =>
      setList(await api<MessageList>('GET', `${endpointPath(endpoint.id)}/messages${queryString({ limit: 20 })}`)),
    );
  useEffect(() => void refresh(), [endpoint.id]);
  return (
    <div class="messages">
      <ErrorText error={load.error} />
      {list && list.items.length === 0 && <p>No message yet.</p>}
      {list && list.items.length > 0 && (
        <ul class="plain">
          {list.items.map((message) => {
            const last = message.attempts[message.attempts.length - 1];
            return (
              <li key={message.id}>
                {formatTime(message.created_at)} <code>{message.id}</code> {message.event_type}
                {message.request_id && (
                  <>
                    {' '}
                    (request <a href={requestHref(message.request_id)}>{message.request_id}</a>)
                  </>
                )}
                : <strong>{message.status}</strong>, {message.attempts.length} attempt
                {message.attempts.length === 1 ? '' : 's'}
                {last ? ` (last ${last.status_code ?? last.error ?? 'no answer'})` : ''}{' '}
                <button
                  type="button"
                  class="secondary small"
                  disabled={retry.busy}
                  aria-label={`Retry message ${message.id}`}
                  onClick={() =>
                    void retry.run(async () => {
                      await api('POST', `${endpointPath(endpoint.id)}/messages/${encodeURIComponent(message.id)}/retry`);
                      setDone(`Message ${message.id} is queued to be sent again now.`);
                      await refresh();
                    })
                  }
                >
                  Retry
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <ErrorText error={retry.error} />
      {done && <p role="status">{done}</p>}
    </div>
  );
}

function EndpointItem({ endpoint }: { endpoint: Endpoint }) {
  const [showMessages, setShowMessages] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const rotate = useSubmit();
  return (
    <li class="endpoint">
      <p>
        <code>{endpoint.url}</code> in {endpoint.workspace_id}
        {endpoint.description ? `: ${endpoint.description}` : ''}.{' '}
        {endpoint.disabled ? (
          <strong>Disabled</strong>
        ) : endpoint.failing_since ? (
          <strong>Failing since {formatTime(endpoint.failing_since)}</strong>
        ) : (
          'Active'
        )}
        .
      </p>
      <div class="buttons">
        <button type="button" class="secondary" aria-expanded={showMessages} onClick={() => setShowMessages(!showMessages)}>
          {showMessages ? 'Hide messages' : 'Messages'}
        </button>
        <button type="button" class="secondary" aria-expanded={confirming} onClick={() => setConfirming(!confirming)}>
          Rotate secret
        </button>
      </div>
      {confirming && (
        <div class="action-form">
          <p>A new secret is made; for 24 hours both the old and the new one sign every message, so the receiver can switch.</p>
          <button
            type="button"
            disabled={rotate.busy}
            onClick={() =>
              void rotate.run(async () => {
                const rotated = await api<EndpointWithSecret>('POST', `${endpointPath(endpoint.id)}/rotate-secret`);
                setSecret(rotated.secret);
                setConfirming(false);
              })
            }
          >
            Confirm: rotate the secret
          </button>
        </div>
      )}
      <ErrorText error={rotate.error} />
      {secret && (
        <div class="notice" role="status">
          <p>New signing secret (shown this once; copy it to the receiver now):</p>
          <p>
            <code class="secret">{secret}</code>
          </p>
        </div>
      )}
      {showMessages && <Messages endpoint={endpoint} />}
    </li>
  );
}

function Endpoints({ workspace }: { workspace: string }) {
  const [list, setList] = useState<EndpointList | null>(null);
  const load = useSubmit();
  useEffect(() => {
    void load.run(async () =>
      setList(await api<EndpointList>('GET', `/api/v1/webhook-endpoints${queryString({ workspace_id: workspace })}`)),
    );
  }, [workspace]);
  return (
    <Section title="Webhook endpoints">
      <ErrorText error={load.error} />
      {list && list.items.length === 0 && <p>No endpoint yet (added with privacyctl endpoint add).</p>}
      {list && list.items.length > 0 && (
        <ul class="plain">
          {list.items.map((endpoint) => (
            <EndpointItem endpoint={endpoint} key={endpoint.id} />
          ))}
        </ul>
      )}
    </Section>
  );
}

/** What a token without `admin` sees instead of the three sections. */
function AdminOnly({ scopes }: { scopes: readonly string[] }) {
  return (
    <section class="card" aria-label="Connections need an admin token">
      <p>
        Integrations, webhook endpoints and data systems are managed with an <strong>admin</strong> token. Yours has{' '}
        {scopes.length ? scopes.join(', ') : 'no scope'}, so they are not shown here. The data tasks of a request, named by their
        system, are on the request’s page.
      </p>
    </section>
  );
}

export function ConnectionsView() {
  const [input, setInput] = useState('');
  const [workspace, setWorkspace] = useState('');
  const me = useWhoAmI();
  // Nothing is asked of the API before the token's scopes are known: no 403 to show.
  if (!me || !hasScope(me, 'admin'))
    return (
      <>
        <h1 tabIndex={-1}>Connections</h1>
        {me ? <AdminOnly scopes={me.scopes} /> : <p role="status">Loading…</p>}
      </>
    );
  return (
    <>
      <h1 tabIndex={-1}>Connections</h1>
      <form
        class="filters"
        aria-label="Filter connections"
        onSubmit={(event) => {
          event.preventDefault();
          setWorkspace(input.trim());
        }}
      >
        <Field id="connections-workspace" label="Workspace" hint="Empty: every workspace of the token">
          {(a11y) => <input {...a11y} value={input} onInput={(e) => setInput(e.currentTarget.value)} />}
        </Field>
        <button type="submit">Show</button>
      </form>
      <Integrations workspace={workspace} />
      <Endpoints workspace={workspace} />
      <DataSystems workspace={workspace} />
    </>
  );
}
