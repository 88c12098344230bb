// One policy layer (workspace or repository) edited with the API's rules (PRODUCT.md §2.4): every
// field may be left to inherit; the API's 422 items appear next to the fields they name.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from '../api/client';
import type { PolicyLayer } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { type Draft, toDraft, toSettings, type Tri } from '../lib/policy-draft';

const TRI_FIELDS = [
  ['processing_allowed', 'Processing allowed'],
  ['require_approval', 'Require approval of new requests'],
  ['auto_erase_on_deprovision', 'Erase automatically when the IdP deletes the user'],
  ['confirm_no_data', 'Review a request that found no data before it completes (identity review)'],
  ['review_packages', 'Check each access or export package before it is released (withhold what names others)'],
] as const;

/**
 * Editor of the layer at `url` (`…/workspaces/{w}` or `…/workspaces/{w}/repositories/{r}`).
 * @param onSaved - called after a save or delete (the effective policy may have changed).
 */
export function LayerEditor(props: { url: string; idPrefix: string; onSaved: () => void }) {
  const [draft, setDraft] = useState<Draft>(toDraft(undefined));
  const [status, setStatus] = useState<string>('');
  const [local, setLocal] = useState<Record<string, string[]>>({});
  const load = useSubmit();
  const save = useSubmit();
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });

  useEffect(() => {
    void load.run(async () => {
      try {
        const layer = await api<PolicyLayer>('GET', props.url);
        setDraft(toDraft(layer.settings));
        setStatus(
          `Version ${layer.version}, saved ${new Date(layer.updated_at).toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
        );
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        setDraft(toDraft(undefined));
        setStatus('No layer here yet: every field inherits.');
      }
    });
  }, [props.url]);

  const onSubmit = (event: Event) => {
    event.preventDefault();
    const { settings, problems } = toSettings(draft);
    setLocal(problems);
    if (Object.keys(problems).length) return;
    void save.run(async () => {
      const layer = await api<PolicyLayer>('PUT', props.url, { body: settings });
      setStatus(`Saved: version ${layer.version}.`);
      props.onSaved();
    });
  };
  const remove = () =>
    void save.run(async () => {
      await api('DELETE', props.url);
      setDraft(toDraft(undefined));
      setStatus('Layer deleted: every field inherits.');
      props.onSaved();
    });

  const id = (name: string) => `${props.idPrefix}-${name}`;
  const errors = (name: string) => fieldErrors(save.error, name, local[name]);
  return (
    <form onSubmit={onSubmit} noValidate class="layer">
      <p role="status">{load.busy ? 'Loading…' : status}</p>
      <ErrorText error={load.error} />
      {TRI_FIELDS.map(([name, label]) => (
        <Field key={name} id={id(name)} label={label} errors={errors(name)}>
          {(a11y) => (
            <select {...a11y} value={draft[name]} onChange={(e) => set(name, e.currentTarget.value as Tri)}>
              <option value="">Inherit</option>
              <option value="true">Yes</option>
              <option value="false">No</option>
            </select>
          )}
        </Field>
      ))}
      <Field id={id('retention_days')} label="Retention (days)" hint="1–3650; empty inherits" errors={errors('retention_days')}>
        {(a11y) => (
          <input
            {...a11y}
            inputMode="numeric"
            value={draft.retention_days}
            onInput={(e) => set('retention_days', e.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        id={id('repeat_window_days')}
        label="Repeat window (days)"
        hint="0–365: a request repeating one open or completed within this many days waits for a decision; 0 turns it off; empty inherits"
        errors={errors('repeat_window_days')}
      >
        {(a11y) => (
          <input
            {...a11y}
            inputMode="numeric"
            value={draft.repeat_window_days}
            onInput={(e) => set('repeat_window_days', e.currentTarget.value)}
          />
        )}
      </Field>
      <Field
        id={id('holidays')}
        label="Holidays"
        hint="Days that are not business days besides weekends, YYYY-MM-DD, one per line: opt-out deadlines skip them"
        errors={errors('holidays')}
      >
        {(a11y) => <textarea {...a11y} rows={3} value={draft.holidays} onInput={(e) => set('holidays', e.currentTarget.value)} />}
      </Field>
      <Field id={id('author_identity')} label="Author identity in change events" errors={errors('author_identity')}>
        {(a11y) => (
          <select
            {...a11y}
            value={draft.author_identity}
            onChange={(e) => set('author_identity', e.currentTarget.value as Draft['author_identity'])}
          >
            <option value="">Inherit</option>
            <option value="full">Full</option>
            <option value="pseudonymous">Pseudonymous</option>
            <option value="none">None</option>
          </select>
        )}
      </Field>
      <Field
        id={id('excluded_paths')}
        label="Excluded paths"
        hint="Glob patterns, one per line"
        errors={errors('excluded_paths')}
      >
        {(a11y) => (
          <textarea
            {...a11y}
            rows={3}
            value={draft.excluded_paths}
            onInput={(e) => set('excluded_paths', e.currentTarget.value)}
          />
        )}
      </Field>
      <fieldset>
        <legend>Regulations (none ticked inherits)</legend>
        {(['gdpr', 'ccpa'] as const).map((regulation) => (
          <div class="checkbox" key={regulation}>
            <input
              type="checkbox"
              id={id(`regulation-${regulation}`)}
              checked={draft.regulations.includes(regulation)}
              onChange={(e) =>
                set(
                  'regulations',
                  e.currentTarget.checked
                    ? [...draft.regulations, regulation]
                    : draft.regulations.filter((item) => item !== regulation),
                )
              }
            />
            <label for={id(`regulation-${regulation}`)}>{regulation.toUpperCase()}</label>
          </div>
        ))}
        {errors('regulations').length > 0 && <p class="field-error">{errors('regulations').join(' ')}</p>}
      </fieldset>
      <div class="buttons">
        <button type="submit" disabled={save.busy}>
          Save layer
        </button>
        <button type="button" class="danger" disabled={save.busy} onClick={remove}>
          Delete layer
        </button>
      </div>
      <ErrorText error={save.error} />
    </form>
  );
}
