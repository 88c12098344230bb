// A group of checkboxes with its legend, hint and errors (the API's 422 at the group's field).
import type { ComponentChildren } from 'preact';

export interface Choice {
  value: string;
  label: ComponentChildren;
}

/**
 * Checkboxes for a list field (`scope`, `categories`, `request_types`): `selected` in, the new
 * list out, in the options' order. `scroll` boxes a long list (it stays one tab stop per box).
 */
export function CheckboxGroup(props: {
  id: string;
  legend: string;
  options: readonly Choice[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
  errors?: string[];
  hint?: string;
  scroll?: boolean;
}) {
  const errors = props.errors ?? [];
  const describedBy = [props.hint ? `${props.id}-hint` : '', errors.length ? `${props.id}-error` : ''].filter(Boolean).join(' ');
  const toggle = (value: string, on: boolean) => {
    const next = new Set(props.selected);
    if (on) next.add(value);
    else next.delete(value);
    props.onChange(props.options.map((o) => o.value).filter((v) => next.has(v)));
  };
  return (
    <fieldset id={props.id} aria-describedby={describedBy || undefined}>
      <legend>{props.legend}</legend>
      {props.hint && (
        <p class="hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
      <div class={props.scroll ? 'choices choices-scroll' : 'choices'}>
        {props.options.map((option) => (
          <div class="checkbox" key={option.value}>
            <input
              type="checkbox"
              id={`${props.id}-${option.value}`}
              checked={props.selected.includes(option.value)}
              onChange={(e) => toggle(option.value, e.currentTarget.checked)}
            />
            <label for={`${props.id}-${option.value}`}>{option.label}</label>
          </div>
        ))}
      </div>
      {errors.length > 0 && (
        <p class="field-error" id={`${props.id}-error`}>
          {errors.join(' ')}
        </p>
      )}
    </fieldset>
  );
}
