import type { ColumnFacts } from './catalog.js';

/** One field of a draft dataset and why it says what it says (a YAML comment on the field; null: nothing to explain). */
export interface FieldProposal {
  readonly field: Record<string, unknown>;
  readonly why: string | null;
}

const EMAIL_LIKE = /(^|_)e-?mail(_address)?$/i;
/** The suffix that keeps a masked address an address (`.invalid`: RFC 2606, never delivered). */
export const MASKED_EMAIL_SUFFIX = '@masked.invalid';
/** The text a NOT NULL column gets when its value is erased. */
const ERASED = 'erased';

/** Maps an SQL type to a Fides `data_type`. */
export function fidesType(sqlType: string): string {
  const t = sqlType.toLowerCase();
  if (/int|serial/.test(t)) return 'integer';
  if (/numeric|decimal|real|double|float/.test(t)) return 'float';
  if (/bool|bit/.test(t)) return 'boolean';
  if (/json/.test(t)) return 'object';
  return 'string';
}

const isText = (c: ColumnFacts) => /char|text/.test(c.dataType);
const isEmail = (c: ColumnFacts) => EMAIL_LIKE.test(c.name);

/** What the column's rules are, in words: `NOT NULL, UNIQUE, CHECK (…)`. */
function rules(c: ColumnFacts): string {
  return [
    ...(c.nullable ? [] : ['NOT NULL']),
    ...(c.unique && !c.primaryKey ? ['UNIQUE'] : []),
    ...c.checks.map((check) => `CHECK ${check.slice(check.indexOf(': ') + 2).replace(/^CHECK\s*/i, '')}`),
  ].join(', ');
}

/** `random_string_rewrite` that fits the column: the address suffix when it is an e-mail column with room for it. */
function randomRewrite(c: ColumnFacts): { masking: Record<string, unknown>; note: string } {
  const suffix = isEmail(c) || c.checks.some((k) => k.includes('@')) ? MASKED_EMAIL_SUFFIX : null;
  const room = c.length === null ? 16 : Math.min(16, c.length - (suffix?.length ?? 0));
  if (suffix !== null && room >= 8)
    return {
      masking: { strategy: 'random_string_rewrite', configuration: { length: room, format_preservation: { suffix } } },
      note: `random_string_rewrite with ${suffix} keeps it a valid address, different in every row`,
    };
  return {
    masking: { strategy: 'random_string_rewrite', configuration: { length: Math.max(1, Math.min(16, c.length ?? 16)) } },
    note: 'random_string_rewrite writes a value different in every row',
  };
}

/**
 * The masking a column accepts, with the reason (PRODUCT §2.17): keys and foreign keys `read_only`;
 * NOT NULL + UNIQUE text `random_string_rewrite` (an e-mail column with the `@masked.invalid`
 * suffix); NOT NULL text `string_rewrite`; NOT NULL of another type `read_only` (no strategy
 * writes a valid one); a nullable column the default (`null`, which UNIQUE accepts too).
 */
function masking(c: ColumnFacts): { meta: Record<string, unknown>; why: string | null } {
  const said = rules(c);
  if (c.primaryKey) return { meta: { read_only: true }, why: 'primary key: names the rows, never written (read_only)' };
  if (c.references)
    return { meta: { read_only: true }, why: `foreign key to ${c.references}: masking it would break the reference (read_only)` };
  // NULL passes a UNIQUE constraint (PostgreSQL and MySQL alike): the default strategy fits.
  if (c.nullable) return { meta: {}, why: c.checks.length > 0 ? `${said}: the masked value must pass it` : null };
  if (!isText(c))
    return {
      meta: { read_only: true },
      why: `${said} ${c.dataType}: no masking strategy writes a valid one (read_only; make the column nullable to erase it)`,
    };
  if (c.unique) {
    const { masking: override, note } = randomRewrite(c);
    return { meta: { masking_strategy_override: override }, why: `${said}: ${note}` };
  }
  const value = c.length === null ? ERASED : ERASED.slice(0, c.length);
  return {
    meta: { masking_strategy_override: { strategy: 'string_rewrite', configuration: { rewrite_value: value } } },
    why: `${said}: null would be refused, string_rewrite writes '${value}'`,
  };
}

/**
 * One field of a draft dataset from what the catalog says of its column: `identity: email` and
 * `user.contact.email` for an e-mail-like name, `primary_key`, the foreign key as a reference (no
 * direction: both ways), `data_type`, `length` from the column's length, and the masking the
 * column accepts, with the reason as a comment. Other categories are left for a person.
 */
export function proposeField(fidesKey: string, c: ColumnFacts): FieldProposal {
  const meta: Record<string, unknown> = {};
  if (isEmail(c)) meta.identity = 'email';
  if (c.primaryKey) meta.primary_key = true;
  if (c.references) meta.references = [{ dataset: fidesKey, field: c.references }];
  meta.data_type = fidesType(c.dataType);
  if (c.length !== null && meta.data_type === 'string') meta.length = c.length;
  const { meta: mask, why } = masking(c);
  const categories = isEmail(c) ? ['user.contact.email'] : c.primaryKey ? ['system.operations'] : null;
  return {
    field: { name: c.name, ...(categories ? { data_categories: categories } : {}), fides_meta: { ...meta, ...mask } },
    // A comment is one line: a CHECK's text never breaks out of it.
    why: why === null ? null : ` ${c.name}: ${why}`.replace(/[\r\n\t]+/g, ' '),
  };
}
