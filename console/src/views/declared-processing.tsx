// What a data system declares about its processing (PRODUCT §2.17, §2.21): in the form, one
// textarea per field (one statement a line, saying where the person reads it in the letter) and
// the third-party mark; in the list, what the system declares or "not declared".
import { Field } from '../components/forms';
import {
  declaredErrors,
  MAX_STATEMENT_CHARS,
  MAX_STATEMENTS,
  PROCESSING_FIELDS,
  PROCESSING_TEXT,
  type ProcessingField,
} from '../lib/declared-processing';
import type { DataSystem, ValidationItem } from '../api/types';

/** The four textareas' text, by field. */
export type DeclaredText = Record<ProcessingField, string>;

/** The textareas and the third-party checkbox of the data-system form. */
export function DeclaredFields(props: {
  id: string;
  text: DeclaredText;
  thirdParty: boolean;
  onText: (field: ProcessingField, value: string) => void;
  onThirdParty: (value: boolean) => void;
  /** The API's 422 items (none when the last try was not refused so). */
  items: readonly ValidationItem[];
  /** The form's own problems, by field. */
  local: Readonly<Record<string, string[]>>;
}) {
  return (
    <fieldset class="declared">
      <legend>What the person reads about this system</legend>
      <p class="hint">
        An access or export letter shows these under the system’s name, in your words. One statement a line (at most{' '}
        {MAX_STATEMENTS}, each up to {MAX_STATEMENT_CHARS} characters). Left empty, the letter says the controller (the
        workspace’s controller profile, or “The organisation” without one) has not declared it.
      </p>
      {PROCESSING_FIELDS.map((field) => {
        const words = PROCESSING_TEXT[field];
        return (
          <Field
            key={field}
            id={`${props.id}-${field}`}
            label={words.label}
            hint={`In the letter under “${words.letter}”. Empty: “[controller] ${words.undeclared}.”`}
            errors={[...(props.local[field] ?? []), ...declaredErrors(props.items, field, props.text[field])]}
          >
            {(a11y) => (
              <textarea
                {...a11y}
                rows={3}
                value={props.text[field]}
                onInput={(e) => props.onText(field, e.currentTarget.value)}
              />
            )}
          </Field>
        );
      })}
      <div class="field checkbox">
        <input
          type="checkbox"
          id={`${props.id}-third-party`}
          checked={props.thirdParty}
          onChange={(e) => props.onThirdParty(e.currentTarget.checked)}
        />
        <label for={`${props.id}-third-party`}>
          A third party’s system: the personal information was sold or shared to it (CCPA, 11 CCR §7026(f)(2))
        </label>
      </div>
    </fieldset>
  );
}

/** What a system declares, field by field, as the letter names them; "not declared" for the rest. */
export function DeclaredSummary({ system }: { system: DataSystem }) {
  return (
    <>
      <h4 class="declared">What the person reads about it</h4>
      <dl class="summary declared">
        {PROCESSING_FIELDS.map((field) => {
          const list = system[field];
          return [
            <dt key={`${field}-t`}>{PROCESSING_TEXT[field].letter}</dt>,
            <dd key={`${field}-d`}>
              {list && list.length > 0 ? (
                <ul class="statements">
                  {list.map((s, i) => (
                    <li key={i}>{s}</li>
                  ))}
                </ul>
              ) : (
                <em>not declared</em>
              )}
            </dd>,
          ];
        })}
        {system.third_party && [
          <dt key="tp-t">Third party</dt>,
          <dd key="tp-d">the personal information was sold or shared to it</dd>,
        ]}
      </dl>
    </>
  );
}
