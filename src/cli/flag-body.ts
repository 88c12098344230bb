import type { TSchema } from '@sinclair/typebox';
import type { ErrorItem } from '../http/validation/error-item.js';
import { validateValue } from '../http/validation/validate-value.js';
import { UsageError } from './command.js';

/** API fields whose flag is not the field's name with dashes: one `--workspace` everywhere. */
const FIELD_FLAGS: Readonly<Record<string, string>> = { workspace_id: '--workspace' };

/** The flag an API body field comes from: `workspace_id` → `--workspace`, `due_days` → `--due-days`. */
export function flagOfField(field: string | number | undefined): string {
  const name = String(field);
  return FIELD_FLAGS[name] ?? `--${name.replaceAll('_', '-')}`;
}

/** One line per problem, naming the flag an API field comes from. */
function flagProblem(error: ErrorItem): string {
  const flag = flagOfField(error.loc[1]);
  return error.type === 'missing' ? `${flag} is required` : `${flag}: ${error.msg}`;
}

/**
 * An API body built from flags (`fields`: API field → flag value, undefined for an absent flag),
 * validated with the API's own `schema` in Pydantic strict mode, so the CLI refuses what the API
 * would. @throws UsageError (exit 2) listing every invalid or missing flag at once.
 */
export function bodyFromFlags<T>(schema: TSchema, fields: Record<string, unknown>, usage: readonly string[]): T {
  const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  const errors: ErrorItem[] = [];
  const validated = validateValue(schema, body, ['body'], 'strict', errors);
  if (errors.length > 0) throw new UsageError(['invalid flags:', ...errors.map((e) => `  ${flagProblem(e)}`)].join('\n'), usage);
  return validated as T;
}
