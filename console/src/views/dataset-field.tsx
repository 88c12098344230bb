// A database system's Fides dataset (PRODUCT §2.14): pasted, or read from a YAML/JSON file into the
// box (what is sent is what the box shows). The API's refusals about it are listed under the box,
// each at its line of the text with a button that selects that place.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { Field } from '../components/forms';
import { type DatasetProblem, datasetItems, locateDatasetProblems } from '../lib/dataset-errors';

/** The box's text and the file it came from, if any. */
export interface DatasetState {
  text: string;
  fileName: string | null;
}

/** At most this much is read from a file (the service bounds the dataset by its collections and fields). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export function DatasetField(props: {
  id: string;
  editing: boolean;
  state: DatasetState;
  onChange: (state: DatasetState) => void;
  error: unknown;
  local: string[];
}) {
  const box = useRef<HTMLTextAreaElement>(null);
  const [problems, setProblems] = useState<DatasetProblem[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const sentText = useRef(props.state.text);
  useEffect(() => {
    const items = props.error instanceof ApiError ? datasetItems(props.error.items) : [];
    sentText.current = props.state.text;
    if (items.length === 0) return setProblems([]);
    let current = true;
    locateDatasetProblems(props.state.text, items).then(
      (found) => current && setProblems(found),
      () => current && setProblems(items.map((i) => ({ path: i.loc.slice(2).join('.'), msg: i.msg, line: null, range: null }))),
    );
    return () => {
      current = false;
    };
  }, [props.error]);
  const select = (range: [number, number]) => {
    const el = box.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(range[0], range[1]);
  };
  const errors = [
    ...props.local,
    ...(problems.length ? [`${problems.length} problem${problems.length === 1 ? '' : 's'} in the dataset, listed below.`] : []),
  ];
  return (
    <>
      <Field
        id={props.id}
        label={props.editing ? 'New dataset (empty: keep the current one)' : 'Dataset (Fides YAML or JSON)'}
        hint="A Fides dataset as your team keeps it: a bare dataset or a file whose dataset list holds one."
        errors={errors}
      >
        {(a11y) => (
          <textarea
            {...a11y}
            ref={box}
            class="code"
            rows={12}
            spellcheck={false}
            value={props.state.text}
            onInput={(e) => props.onChange({ text: e.currentTarget.value, fileName: null })}
          />
        )}
      </Field>
      {problems.length > 0 && (
        <ul class="dataset-problems" aria-label="Problems in the dataset">
          {problems.map((p, i) => (
            <li key={i}>
              {p.line !== null ? <strong>Line {p.line}</strong> : <strong>Dataset</strong>}
              {p.path ? (
                <>
                  {' '}
                  (<code>{p.path}</code>)
                </>
              ) : null}
              : {p.msg}{' '}
              {p.range && sentText.current === props.state.text && (
                <button type="button" class="secondary small" onClick={() => p.range && select(p.range)}>
                  Show in the text
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Field
        id={`${props.id}-file`}
        label="Or read the dataset from a file (.yml, .yaml, .json)"
        hint={props.state.fileName ? `Read from ${props.state.fileName}; the box above shows what will be sent.` : undefined}
        errors={fileError ? [fileError] : []}
      >
        {(a11y) => (
          <input
            {...a11y}
            type="file"
            accept=".yml,.yaml,.json,application/json,application/yaml,text/yaml"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              setFileError(null);
              if (!file) return;
              if (file.size > MAX_FILE_BYTES)
                return setFileError(`The file is ${file.size} bytes; at most ${MAX_FILE_BYTES} are read.`);
              file.text().then(
                (text) => props.onChange({ text, fileName: file.name }),
                () => setFileError('The file could not be read.'),
              );
            }}
          />
        )}
      </Field>
    </>
  );
}
