import { Document, type YAMLMap } from 'yaml';
import type { AllowedHost } from '../../lib/allowed-hosts.js';
import { type Catalog, readCatalog } from './catalog.js';
import { openTarget } from './connector-run.js';
import type { ConnectorKind } from './connection-url.fns.js';
import { proposeField } from './generate-proposal.fns.js';
import { asConnectorError } from './read-pass.js';

/**
 * A draft Fides dataset from a schema's catalog (PRODUCT §2.14, §2.17 `privacyctl dataset
 * generate`): one collection per table, primary keys, foreign keys as references (no direction:
 * both ways), e-mail-like columns as the `email` identity labelled `user.contact.email`, `length`
 * from the column's length, and for each column the masking it accepts (keys and foreign keys
 * `read_only`, NOT NULL + UNIQUE e-mail `random_string_rewrite` with `@masked.invalid`, NOT NULL
 * text `string_rewrite`), with the constraint that decided it as a YAML comment on the field.
 * Other categories are left for a person to choose. @returns YAML.
 */
export function draftDataset(fidesKey: string, schema: string | null, catalog: Catalog): string {
  const tables = [...catalog.values()];
  const proposals = tables.map((t) => [...t.columns.values()].map((c) => proposeField(fidesKey, c)));
  const dataset = {
    fides_key: fidesKey,
    name: fidesKey,
    ...(schema ? { fides_meta: { namespace: { schema } } } : {}),
    collections: tables.map((t, i) => ({ name: t.name, fields: (proposals[i] ?? []).map((p) => p.field) })),
  };
  const doc = new Document({ dataset: [dataset] });
  doc.commentBefore =
    ' Draft dataset: label every field with its data categories before registering it.\n' +
    " Each comment says which of the database's rules (NOT NULL, UNIQUE, CHECK, keys) chose the field's masking.";
  proposals.forEach((fields, i) =>
    fields.forEach((p, j) => {
      const node = doc.getIn(['dataset', 0, 'collections', i, 'fields', j], true) as YAMLMap | undefined;
      if (node && p.why !== null) node.commentBefore = p.why;
    }),
  );
  return doc.toString({ lineWidth: 0 });
}

/**
 * Drafts a dataset from a database's catalog (`privacyctl dataset generate`): columns, keys,
 * NOT NULL, UNIQUE, CHECK, lengths and foreign keys (PostgreSQL `pg_catalog` and
 * `information_schema`, MySQL/MariaDB `information_schema`). `schema` defaults to `public`
 * (PostgreSQL) or the URL's database (MySQL). @returns YAML.
 * @throws ConnectorError (unreachable, login refused, missing database, permission, …) without the URL.
 */
export async function generateDataset(input: {
  kind: ConnectorKind;
  url: string;
  schema?: string;
  allowedHosts: readonly AllowedHost[];
}): Promise<string> {
  const session = await openTarget({ ...input, system: 'dataset-generate', limits: { statementTimeoutMs: 30_000, maxRows: 0 } });
  try {
    const database = new URL(input.url).pathname.replace(/^\//, '');
    const schema = input.schema ?? (input.kind === 'postgres' ? 'public' : decodeURIComponent(database));
    const catalog = await readCatalog(session, schema).catch((error: unknown) => {
      throw asConnectorError(error, 'dataset-generate', null);
    });
    const key = `${decodeURIComponent(database)}_${schema}`.replace(/[^A-Za-z0-9_]/g, '_');
    return draftDataset(key, input.schema ?? (input.kind === 'postgres' ? schema : null), catalog);
  } finally {
    await session.close();
  }
}
