// Form pieces shared by the views: errors next to the fields the API names, one alert for the rest,
// and a submit guard so that a double click sends nothing twice.
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { ValidationItem } from '../api/types';

/** The 422 items about `field` (`loc` `["body", field, …]` or `["query", field]`). */
export function itemsFor(items: ValidationItem[], field: string): ValidationItem[] {
  return items.filter(
    (item) => (item.loc[0] === 'body' || item.loc[0] === 'query' || item.loc[0] === 'header') && item.loc[1] === field,
  );
}

/** A labelled control with its hint and errors, wired with aria-describedby/aria-invalid. */
export function Field(props: {
  id: string;
  label: string;
  errors?: string[];
  hint?: string;
  children: (a11y: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ComponentChildren;
}) {
  const errors = props.errors ?? [];
  const describedBy = [props.hint ? `${props.id}-hint` : '', errors.length ? `${props.id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children({
        id: props.id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(errors.length ? { 'aria-invalid': true } : {}),
      })}
      {errors.length > 0 && (
        <p class="field-error" id={`${props.id}-error`}>
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}

/** One 422 item: `field.sub: message`, or the message alone for the whole body (`loc` `["body"]`). */
function itemText(item: ValidationItem): string {
  const where = item.loc.slice(1).join('.');
  return where ? `${where}: ${item.msg}` : item.msg;
}

/** A refusal in the API's words (role=alert, so screen readers hear it). */
export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  const text =
    error instanceof ApiError
      ? error.items.length
        ? `The service refused the input (${error.status}): ${error.items.map(itemText).join('; ')}`
        : `${error.detail as string} (${error.status})`
      : error instanceof Error
        ? error.message
        : String(error);
  return (
    <p class="alert" role="alert">
      {text}
    </p>
  );
}

/** Messages of the 422 items about `field`, plus any client-side ones. */
export function fieldErrors(error: unknown, field: string, local: string[] = []): string[] {
  const remote = error instanceof ApiError ? itemsFor(error.items, field).map((item) => item.msg) : [];
  return [...local, ...remote];
}

/**
 * Runs one submission at a time: while one is in flight, `run` does nothing (a double click
 * sends nothing twice). Keeps the last error.
 */
export function useSubmit() {
  const inFlight = useRef(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (work: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(caught);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** A section with a heading of the given level. */
export function Section(props: { title: string; id?: string; children: ComponentChildren }) {
  const id = props.id ?? props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <section aria-labelledby={id} class="card">
      <h2 id={id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/**
 * A form's refusal: for a 422, how many problems and that they are marked at their fields, plus
 * the items about no field of `placed` (in the API's words); any other refusal as {@link ErrorText}.
 */
export function FormErrors({ error, placed }: { error: unknown; placed: readonly string[] }) {
  if (!(error instanceof ApiError) || error.items.length === 0) return <ErrorText error={error} />;
  const rest = error.items.filter((item) => !placed.some((field) => itemsFor([item], field).length > 0));
  const n = error.items.length;
  return (
    <div class="alert" role="alert">
      <p>
        The service refused the input ({n} problem{n === 1 ? '' : 's'})
        {rest.length < n ? ': each is shown at its field above' : ''}.
      </p>
      {rest.length > 0 && (
        <ul>
          {rest.map((item, i) => (
            <li key={i}>{itemText(item)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
