// The workspace's privacy center (PRODUCT §2.15, §2.21): on or off, the request types people may
// file there, its title and whether authorized agents outside DRP may file there (§2.19), with a link to its public page. Read with privacy:read (404: never
// set, so off), saved (audited) with admin.
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api/client';
import { type PrivacyCenterBody, type PrivacyCenterSettings, REQUEST_TYPES } from '../api/types';
import { CheckboxGroup } from '../components/choices';
import { ErrorText, Field, fieldErrors, FormErrors, useSubmit } from '../components/forms';
import { useLoad } from '../components/use-load';
import { formatTime } from '../lib/deadline';

const TYPE_WORDS: Record<string, string> = {
  access: 'access (a copy of their data)',
  export: 'export (their data, machine-readable)',
  correction: 'correction',
  deletion: 'deletion',
};

interface Draft {
  enabled: boolean;
  request_types: string[];
  title: string;
  agent_requests: boolean;
}

const draftOf = (s: PrivacyCenterSettings | null): Draft => ({
  enabled: s?.enabled ?? false,
  request_types: s ? [...s.request_types] : ['access', 'deletion'],
  title: s?.title ?? '',
  agent_requests: s?.agent_requests ?? false,
});

/** The public page's address (served by this service; no token needed). */
export const centerHref = (workspace: string) => `/privacy-center/${encodeURIComponent(workspace)}/`;

function Consequence({ draft, workspace }: { draft: Draft; workspace: string }) {
  if (!draft.enabled)
    return (
      <p class="notice">
        Off: the public page answers “not found” and nobody can file there. Requests already filed stay in the queue.
      </p>
    );
  return (
    <p class="notice">
      On: anyone can ask for {draft.request_types.map((t) => TYPE_WORDS[t] ?? t).join(', ') || 'nothing yet (choose a type)'} at{' '}
      <code>{centerHref(workspace)}</code> with their e-mail address. A request reaches this queue once the person enters the code
      mailed to them, filed by e-mail address and received when they submitted it.
    </p>
  );
}

export function PrivacyCenterSection({ workspace, canEdit }: { workspace: string; canEdit: boolean }) {
  const [settings, setSettings] = useState<PrivacyCenterSettings | null | undefined>(undefined);
  const [draft, setDraft] = useState<Draft>(draftOf(null));
  const [saved, setSaved] = useState('');
  const submit = useSubmit();
  const url = `/api/v1/workspaces/${encodeURIComponent(workspace)}/privacy-center`;
  const load = useLoad(
    async (isCurrent) => {
      let found: PrivacyCenterSettings | null = null;
      try {
        found = await api<PrivacyCenterSettings>('GET', url);
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
      if (!isCurrent()) return;
      setSettings(found);
      setDraft(draftOf(found));
      setSaved('');
    },
    [workspace],
  );
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void submit.run(async () => {
      const body: PrivacyCenterBody = {
        enabled: draft.enabled,
        request_types: draft.request_types as PrivacyCenterBody['request_types'],
        ...(draft.title.trim() ? { title: draft.title.trim() } : {}),
        agent_requests: draft.agent_requests,
      };
      const stored = await api<PrivacyCenterSettings>('PUT', url, { body });
      setSettings(stored);
      setSaved(stored.enabled ? 'Saved: the privacy center is on.' : 'Saved: the privacy center is off.');
    });
  };
  const on = settings?.enabled === true;
  return (
    <section class="card" aria-labelledby="center-heading">
      <h2 id="center-heading">Privacy center</h2>
      <ErrorText error={load.error} />
      {settings !== undefined && (
        <p>
          {on ? <strong>On</strong> : <strong>Off</strong>}
          {settings
            ? `${on ? `: people may ask for ${settings.request_types.join(', ')}` : ''}${settings.title ? `, titled “${settings.title}”` : ''}. Last changed ${formatTime(settings.updated_at)}.`
            : ': never turned on for this workspace.'}{' '}
          {on && (
            <a href={centerHref(workspace)} target="_blank" rel="noopener noreferrer">
              Open its public page
            </a>
          )}
        </p>
      )}
      {!canEdit && settings !== undefined && (
        <p class="hint">Your token may read this setting; changing it needs an admin token.</p>
      )}
      {canEdit && settings !== undefined && (
        <form aria-label="Privacy center settings" noValidate onSubmit={onSubmit}>
          <div class="field checkbox">
            <input
              type="checkbox"
              id="center-enabled"
              checked={draft.enabled}
              onChange={(e) => setDraft({ ...draft, enabled: e.currentTarget.checked })}
            />
            <label for="center-enabled">People may file requests on the public page</label>
          </div>
          <div class="field checkbox">
            <input
              type="checkbox"
              id="center-agents"
              checked={draft.agent_requests}
              onChange={(e) => setDraft({ ...draft, agent_requests: e.currentTarget.checked })}
            />
            <label for="center-agents">
              Authorized agents may file for people there (the agent proves its e-mail address; nothing is filed until the person
              confirms by e-mail)
            </label>
          </div>
          <CheckboxGroup
            id="center-types"
            legend="Request types people may file there"
            options={REQUEST_TYPES.map((t) => ({ value: t, label: TYPE_WORDS[t] ?? t }))}
            selected={draft.request_types}
            onChange={(v) => setDraft({ ...draft, request_types: v })}
            errors={fieldErrors(submit.error, 'request_types')}
          />
          <Field
            id="center-title"
            label="Title of the page (optional)"
            hint="Shown at the top of the public page"
            errors={fieldErrors(submit.error, 'title')}
          >
            {(a11y) => (
              <input
                {...a11y}
                maxLength={200}
                value={draft.title}
                onInput={(e) => setDraft({ ...draft, title: e.currentTarget.value })}
              />
            )}
          </Field>
          <Consequence draft={draft} workspace={workspace} />
          <button type="submit" disabled={submit.busy}>
            {submit.busy ? 'Saving…' : 'Save the privacy center'}
          </button>
          <FormErrors error={submit.error} placed={['enabled', 'request_types', 'title']} />
          {saved && (
            <p class="notice" role="status">
              {saved}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
