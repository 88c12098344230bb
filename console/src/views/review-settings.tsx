// The workspace policy's review and repeat fields in Workspace settings (PRODUCT §2.20, §2.21):
// whether each access/export package waits for a check before release (`review_packages`) and
// how far back a new request counts as a repeat (`repeat_window_days`). Read with policy:read,
// saved with policy:write as a PUT of the workspace layer that keeps every other field as stored
// (a PUT replaces the whole layer). The effective value may come from a stricter repository layer
// only for repository lookups; requests follow the workspace layer.
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api/client';
import type { PolicyLayer, PolicySettings } from '../api/types';
import { ErrorText, Field, fieldErrors, useSubmit } from '../components/forms';
import { useLoad } from '../components/use-load';

/** What the form edits; the rest of the stored layer goes back as it was. */
interface Draft {
  review: boolean;
  repeatDays: string;
}

const draftOf = (s: PolicySettings): Draft => ({
  review: s.review_packages === true,
  repeatDays: String(s.repeat_window_days ?? 0),
});

/** The window as the API bounds it: a whole number of days, 0–365. */
function repeatProblem(text: string): string | null {
  return /^\d{1,3}$/.test(text.trim()) && Number(text) <= 365 ? null : 'A whole number of days from 0 (off) to 365';
}

export function ReviewSettingsSection(props: { workspace: string; canRead: boolean; canEdit: boolean }) {
  const [stored, setStored] = useState<PolicySettings | undefined>(undefined);
  const [draft, setDraft] = useState<Draft>(draftOf({}));
  const [local, setLocal] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const submit = useSubmit();
  const url = `/api/v1/policies/workspaces/${encodeURIComponent(props.workspace)}`;
  const load = useLoad(
    async (isCurrent) => {
      if (!props.canRead) return;
      let settings: PolicySettings = {};
      try {
        settings = (await api<PolicyLayer>('GET', url)).settings;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
      }
      if (!isCurrent()) return;
      setStored(settings);
      setDraft(draftOf(settings));
      setSaved('');
    },
    [props.workspace, props.canRead],
  );
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const problem = repeatProblem(draft.repeatDays);
    setLocal(problem);
    if (problem || stored === undefined) return;
    void submit.run(async () => {
      const body: PolicySettings = { ...stored, review_packages: draft.review, repeat_window_days: Number(draft.repeatDays) };
      const layer = await api<PolicyLayer>('PUT', url, { body });
      setStored(layer.settings);
      setSaved(`Saved: policy version ${layer.version}.`);
    });
  };
  return (
    <section class="card" aria-labelledby="review-heading">
      <h2 id="review-heading">Review and repeats</h2>
      {!props.canRead && <p class="hint">Reading the workspace policy needs a token with policy:read.</p>}
      <ErrorText error={load.error} />
      {stored !== undefined && (
        <p>
          Packages are{' '}
          {stored.review_packages === true ? <strong>checked before release</strong> : <strong>released at once</strong>};
          repeated requests are{' '}
          {(stored.repeat_window_days ?? 0) > 0 ? (
            <strong>held when they repeat one open or answered in the last {stored.repeat_window_days} days</strong>
          ) : (
            <strong>not looked for</strong>
          )}
          .
        </p>
      )}
      {stored !== undefined && !props.canEdit && <p class="hint">Changing these needs a token with policy:write.</p>}
      {stored !== undefined && props.canEdit && (
        <form aria-label="Review and repeats" noValidate onSubmit={onSubmit}>
          <div class="field checkbox">
            <input
              type="checkbox"
              id="review-packages"
              checked={draft.review}
              onChange={(e) => setDraft({ ...draft, review: e.currentTarget.checked })}
            />
            <label for="review-packages">
              Check each access or export package before the person gets it, and withhold what names others (GDPR Art. 15(4))
            </label>
          </div>
          <Field
            id="repeat-window"
            label="Hold a request that repeats one from the last … days (0: off)"
            hint="A request of the same type for the same person, while another is open or was answered within these days, waits for you to proceed, reject or cancel it (GDPR Art. 12(5))."
            errors={fieldErrors(submit.error, 'repeat_window_days', local ? [local] : [])}
          >
            {(a11y) => (
              <input
                {...a11y}
                inputMode="numeric"
                value={draft.repeatDays}
                onInput={(e) => {
                  setLocal(null);
                  setDraft({ ...draft, repeatDays: e.currentTarget.value });
                }}
              />
            )}
          </Field>
          <button type="submit" disabled={submit.busy}>
            {submit.busy ? 'Saving…' : 'Save'}
          </button>
          <p role="status">{saved}</p>
          <ErrorText error={fieldErrors(submit.error, 'repeat_window_days').length ? null : submit.error} />
        </form>
      )}
    </section>
  );
}
