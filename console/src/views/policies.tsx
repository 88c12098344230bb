// Policies (PRODUCT.md §2b, §2.4): the workspace and repository layers, edited, and the effective
// policy of a repository with the layer each field comes from.
import { useEffect, useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { EffectivePolicy } from '../api/types';
import { ErrorText, Field, Section, useSubmit } from '../components/forms';
import { LayerEditor } from './policy-layer';

function show(value: unknown): string {
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function Effective(props: { workspace: string; repository: string; version: number }) {
  const [effective, setEffective] = useState<EffectivePolicy | null>(null);
  const load = useSubmit();
  useEffect(() => {
    void load.run(async () =>
      setEffective(
        await api<EffectivePolicy>(
          'GET',
          `/api/v1/policies/effective${queryString({ workspace_id: props.workspace, repository: props.repository })}`,
        ),
      ),
    );
  }, [props.workspace, props.repository, props.version]);
  return (
    <>
      <ErrorText error={load.error} />
      {effective && (
        <table class="effective">
          <caption>
            Effective policy of {effective.repository} (version {effective.version})
          </caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(effective.policy).map(([field, value]) => (
              <tr key={field}>
                <th scope="row">{field}</th>
                <td>{show(value)}</td>
                <td>{effective.sources[field] ?? 'default'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

export function PoliciesView() {
  const [workspace, setWorkspace] = useState('');
  const [repository, setRepository] = useState('');
  const [chosen, setChosen] = useState<{ workspace: string; repository: string } | null>(null);
  const [version, setVersion] = useState(0);
  const saved = () => setVersion((n) => n + 1);
  const base = chosen ? `/api/v1/policies/workspaces/${encodeURIComponent(chosen.workspace)}` : '';

  return (
    <>
      <h1 tabIndex={-1}>Policies</h1>
      <p>
        Defaults &lt; workspace &lt; repository: the workspace layer replaces defaults field by field; a repository layer can only
        make the result stricter.
      </p>
      <form
        class="filters"
        aria-label="Choose a workspace and repository"
        onSubmit={(event) => {
          event.preventDefault();
          if (workspace.trim()) setChosen({ workspace: workspace.trim(), repository: repository.trim() });
        }}
      >
        <Field id="policy-workspace" label="Workspace">
          {(a11y) => <input {...a11y} required value={workspace} onInput={(e) => setWorkspace(e.currentTarget.value)} />}
        </Field>
        <Field id="policy-repository" label="Repository" hint="owner/name or group/sub/project">
          {(a11y) => <input {...a11y} value={repository} onInput={(e) => setRepository(e.currentTarget.value)} />}
        </Field>
        <button type="submit">Show</button>
      </form>
      {chosen && (
        <>
          <Section title={`Workspace layer: ${chosen.workspace}`} id="workspace-layer">
            <LayerEditor url={base} idPrefix="ws" onSaved={saved} />
          </Section>
          {chosen.repository && (
            <>
              <Section title={`Repository layer: ${chosen.repository}`} id="repository-layer">
                <LayerEditor
                  url={`${base}/repositories/${encodeURIComponent(chosen.repository)}`}
                  idPrefix="repo"
                  onSaved={saved}
                />
              </Section>
              <Section title="Effective policy">
                <Effective workspace={chosen.workspace} repository={chosen.repository} version={version} />
              </Section>
            </>
          )}
        </>
      )}
    </>
  );
}
