// Workspace settings (PRODUCT §2.21): one workspace at a time (kept in the address), its controller
// profile (§2.10), its privacy center (§2.15) and its policy's review and repeat fields (§2.20). A
// privacy:read token reads the first two, a policy:read token the third; admin and policy:write
// edit them.
import { useState } from 'preact/hooks';
import { hasScope, useWhoAmI } from '../api/whoami';
import { Field } from '../components/forms';
import { hashParams, setHashParams } from '../lib/router';
import { ControllerSection } from './controller-profile';
import { PrivacyCenterSection } from './privacy-center-settings';
import { ReviewSettingsSection } from './review-settings';

/** The workspace chosen: from the address, else the token's only (or first) workspace. */
function initialWorkspace(listed: readonly string[] | null): string {
  return hashParams().get('workspace') ?? listed?.[0] ?? '';
}

export function SettingsView() {
  const me = useWhoAmI();
  const listed = me && me.workspaces !== '*' ? me.workspaces : null;
  const [chosen, setChosen] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const workspace = chosen ?? (me ? initialWorkspace(listed) : '');
  const canEdit = hasScope(me, 'admin');
  const choose = (value: string) => {
    setChosen(value);
    setHashParams(new URLSearchParams(value ? { workspace: value } : {}));
  };
  return (
    <>
      <h1 tabIndex={-1}>Workspace settings</h1>
      <form
        class="filters"
        aria-label="Choose the workspace"
        onSubmit={(e) => {
          e.preventDefault();
          choose(typed.trim());
        }}
      >
        <Field id="settings-workspace" label="Workspace">
          {(a11y) =>
            listed ? (
              <select {...a11y} value={workspace} onChange={(e) => choose(e.currentTarget.value)}>
                {listed.map((w) => (
                  <option key={w} value={w}>
                    {w}
                  </option>
                ))}
              </select>
            ) : (
              <input {...a11y} value={typed || workspace} onInput={(e) => setTyped(e.currentTarget.value)} />
            )
          }
        </Field>
        {!listed && <button type="submit">Show</button>}
      </form>
      {!workspace && me && <p>Name a workspace to see its settings.</p>}
      {workspace && (
        <>
          <ControllerSection key={`c-${workspace}`} workspace={workspace} canEdit={canEdit} />
          <PrivacyCenterSection key={`p-${workspace}`} workspace={workspace} canEdit={canEdit} />
          <ReviewSettingsSection
            key={`r-${workspace}`}
            workspace={workspace}
            canRead={hasScope(me, 'policy:read')}
            canEdit={hasScope(me, 'policy:write')}
          />
        </>
      )}
    </>
  );
}
