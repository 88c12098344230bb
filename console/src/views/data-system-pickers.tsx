// The choices of the data-system form: the workspace (from the token), the kind (each saying who
// does the work) and, for a webhook system, the endpoint of the workspace its tasks go to.
import { useState } from 'preact/hooks';
import { api, queryString } from '../api/client';
import type { DataSystemKind, EndpointList } from '../api/types';
import { useWhoAmI } from '../api/whoami';
import { Field } from '../components/forms';
import { useLoad } from '../components/use-load';

export const KIND_NAMES: Record<DataSystemKind, string> = {
  manual: 'Manual',
  webhook: 'Webhook',
  postgres: 'PostgreSQL database',
  mysql: 'MySQL / MariaDB database',
};

const KIND_HINTS: Record<DataSystemKind, string> = {
  manual: 'An operator looks in the system and marks each task done here.',
  webhook: 'The system is told of each task at a webhook endpoint and reports its result itself.',
  postgres: 'The service reaches the database itself and does the work, from a Fides dataset.',
  mysql: 'The service reaches the database itself (MySQL or MariaDB) and does the work, from a Fides dataset.',
};

/** Database kinds: the service runs their tasks itself (PRODUCT §2.14). */
export const isDatabase = (kind: DataSystemKind) => kind === 'postgres' || kind === 'mysql';

/** The workspace: a choice of the token's workspaces, or a text field for a token of every workspace. */
export function WorkspacePicker(props: { id: string; value: string; onChange: (v: string) => void; errors: string[] }) {
  const me = useWhoAmI();
  const listed = me && me.workspaces !== '*' ? me.workspaces : null;
  return (
    <Field id={props.id} label="Workspace" errors={props.errors}>
      {(a11y) =>
        listed ? (
          <select {...a11y} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
            <option value="">Choose…</option>
            {listed.map((w) => (
              <option key={w} value={w}>
                {w}
              </option>
            ))}
          </select>
        ) : (
          <input {...a11y} value={props.value} onInput={(e) => props.onChange(e.currentTarget.value)} />
        )
      }
    </Field>
  );
}

/** The kind, as radio buttons each saying who does the work. */
export function KindPicker(props: { id: string; value: DataSystemKind; onChange: (v: DataSystemKind) => void }) {
  return (
    <fieldset>
      <legend>Kind</legend>
      {(Object.keys(KIND_NAMES) as DataSystemKind[]).map((kind) => (
        <div class="checkbox radio" key={kind}>
          <input
            type="radio"
            name={props.id}
            id={`${props.id}-${kind}`}
            value={kind}
            checked={props.value === kind}
            aria-describedby={`${props.id}-${kind}-hint`}
            onChange={() => props.onChange(kind)}
          />
          <label for={`${props.id}-${kind}`}>{KIND_NAMES[kind]}</label>
          <p class="hint" id={`${props.id}-${kind}-hint`}>
            {KIND_HINTS[kind]}
          </p>
        </div>
      ))}
    </fieldset>
  );
}

/** The workspace's webhook endpoints to choose from (scope admin; the Connections page has them). */
export function EndpointPicker(props: {
  id: string;
  workspace: string;
  value: string;
  onChange: (v: string) => void;
  errors: string[];
}) {
  const [endpoints, setEndpoints] = useState<EndpointList['items']>([]);
  const load = useLoad(
    async (isCurrent) => {
      if (!props.workspace.trim()) return setEndpoints([]);
      const list = await api<EndpointList>(
        'GET',
        `/api/v1/webhook-endpoints${queryString({ workspace_id: props.workspace.trim() })}`,
      );
      if (isCurrent()) setEndpoints(list.items);
    },
    [props.workspace],
  );
  const problems = [...props.errors, ...(load.error ? ['The endpoints could not be listed.'] : [])];
  return (
    <Field
      id={props.id}
      label="Endpoint its tasks are sent to"
      hint={endpoints.length ? undefined : 'The workspace has no webhook endpoint yet: add one first.'}
      errors={problems}
    >
      {(a11y) => (
        <select {...a11y} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
          <option value="">Choose…</option>
          {endpoints.map((ep) => (
            <option key={ep.id} value={ep.id}>
              {ep.url}
              {ep.description ? ` (${ep.description})` : ''}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
