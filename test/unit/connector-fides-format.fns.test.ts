/**
 * Fides datasets unchanged (PRODUCT §2.17; issue 32 item 4), the pure parts: the Fides features
 * the connectors now take (`null_rewrite`, `format_preservation` on rewrites, dataset-level
 * descriptive keys, `skip_processing`, a file of several datasets with `dataset_key`), and those
 * still refused with a 422 naming the key.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readDataset } from '../../src/modules/connectors/connectors.js';
import { checkDataset } from '../../src/modules/connectors/dataset-check.fns.js';
import { parseDataset } from '../../src/modules/connectors/dataset-parse.fns.js';
import type { Field } from '../../src/modules/connectors/dataset.types.js';
import { maskValue } from '../../src/modules/connectors/masking.fns.js';

const customer = (extraMeta: Record<string, unknown> = {}) => ({
  name: 'customer',
  fides_meta: extraMeta,
  fields: [
    { name: 'id', fides_meta: { primary_key: true } },
    { name: 'email', data_categories: ['user.contact.email'], fides_meta: { identity: 'email' } },
  ],
});

describe('Fides features the connectors take', () => {
  it('masking: null_rewrite is null; string_rewrite and random_string_rewrite keep a format_preservation suffix within the length', () => {
    const parsed = parseDataset({
      fides_key: 'd',
      collections: [
        {
          name: 'c',
          fields: [
            {
              name: 'a',
              fides_meta: { identity: 'email', masking_strategy_override: { strategy: 'null_rewrite', configuration: {} } },
            },
            {
              name: 'b',
              fides_meta: {
                length: 40,
                masking_strategy_override: {
                  strategy: 'string_rewrite',
                  configuration: { rewrite_value: 'testing', format_preservation: { suffix: '-test' } },
                },
              },
            },
            {
              name: 'e',
              fides_meta: {
                length: 20,
                masking_strategy_override: {
                  strategy: 'random_string_rewrite',
                  configuration: { length: 30, format_preservation: { suffix: '@masked.invalid' } },
                },
              },
            },
            {
              name: 'f',
              fides_meta: {
                length: 9,
                masking_strategy_override: {
                  strategy: 'string_rewrite',
                  configuration: { rewrite_value: 'erased-long', format_preservation: { suffix: '@x.io' } },
                },
              },
            },
          ],
        },
      ],
    });
    assert.deepEqual(parsed.problems, []);
    const [a, b, e, f] = parsed.dataset!.collections[0]!.fields as [Field, Field, Field, Field];
    assert.deepEqual(a.masking, { strategy: 'null' });
    assert.equal(maskValue(a, 'x', 'k'), null);
    assert.equal(maskValue(b, 'Jack Employee', 'k'), 'testing-test', 'Fides: rewrite_value + suffix');
    assert.match(String(maskValue(e, 'a@b.c', 'k')), /^[a-z0-9]{5}@masked\.invalid$/);
    assert.equal(maskValue(f, 'x', 'k'), 'eras@x.io', 'cut before the suffix, the suffix kept');
  });

  it('dataset-level name, description, organization_fides_key, tags, meta and data_categories are taken and change nothing', () => {
    const plain = parseDataset({ fides_key: 'd', collections: [customer()] });
    const described = parseDataset({
      fides_key: 'd',
      name: 'D',
      description: 'a dataset',
      organization_fides_key: 'default_organization',
      tags: ['x'],
      meta: { owner: 'team' },
      data_categories: [],
      collections: [customer()],
    });
    assert.deepEqual(described.problems, []);
    assert.deepEqual(described.dataset, plain.dataset);
  });

  it('skip_processing: the collection is never read or written; a reference to it is refused at its loc', () => {
    const parsed = parseDataset({
      fides_key: 'd',
      collections: [
        customer(),
        {
          name: 'legacy',
          fides_meta: { skip_processing: true },
          fields: [
            { name: 'customer_id', fides_meta: { references: [{ dataset: 'd', field: 'customer.id', direction: 'from' }] } },
          ],
        },
        {
          name: 'notes',
          fields: [
            { name: 'legacy_id', fides_meta: { references: [{ dataset: 'd', field: 'legacy.customer_id', direction: 'from' }] } },
          ],
        },
      ],
    });
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(
      parsed.dataset!.collections.map((c) => [c.name, c.position]),
      [
        ['customer', 0],
        ['notes', 2],
      ],
    );
    assert.deepEqual(parsed.dataset!.skipped, ['legacy']);
    assert.deepEqual(
      checkDataset(parsed.dataset!, []).map((p) => [p.loc.join('.'), p.msg]),
      [
        [
          'collections.2.fields.0.fides_meta.references.0',
          'the reference names legacy.customer_id, whose collection is marked skip_processing',
        ],
      ],
    );
  });

  it('a file of several datasets: dataset_key chooses one (locs under its index); without it the keys are listed; a wrong key is a problem of dataset_key', () => {
    const file = {
      dataset: [
        { fides_key: 'first', collections: [customer()] },
        { fides_key: 'second', collections: [{ ...customer(), fields: [{ name: 'email', nested: 1 }] }] },
      ],
    };
    assert.deepEqual(parseDataset(file).problems, [
      { loc: [], msg: 'the Fides file holds 2 datasets (first, second): choose one with dataset_key' },
    ]);
    assert.equal(parseDataset(file, 'first').dataset?.fides_key, 'first');
    assert.deepEqual(
      parseDataset(file, 'second').problems.map((p) => p.loc),
      [['dataset', 1, 'collections', 0, 'fields', 0, 'nested']],
    );
    assert.deepEqual(parseDataset(file, 'third').problems, [
      { loc: ['dataset_key'], msg: "dataset_key names none of the file's datasets (first, second)", root: 'body' },
    ]);
    assert.deepEqual(readDataset({ fides_key: 'only', collections: [customer()] }, 'other'), {
      problems: [{ loc: ['dataset_key'], msg: "dataset_key other is not the dataset's fides_key (only)", root: 'body' }],
    });
  });
});

describe('Fides features still refused, each naming its key', () => {
  it('nested fields, references to another dataset, custom_request_field, partitioning', () => {
    const parsed = parseDataset({
      fides_key: 'd',
      collections: [
        {
          name: 'c',
          fides_meta: { partitioning: { where_clauses: [] } },
          fields: [
            { name: 'email', fides_meta: { identity: 'email' } },
            { name: 'workplace', fields: [{ name: 'employer' }] },
            { name: 'other_id', fides_meta: { references: [{ dataset: 'other', field: 'x.id', direction: 'from' }] } },
            { name: 'site_id', fides_meta: { custom_request_field: 'tenant_id' } },
          ],
        },
      ],
    });
    assert.deepEqual(
      parsed.problems.map((p) => [p.loc.join('.'), p.msg]),
      [
        ['collections.0.fides_meta.partitioning', 'partitioning is not supported (it is for BigQuery tables)'],
        ['collections.0.fields.1.fields', 'nested fields are not supported: describe the column itself'],
        [
          'collections.0.fields.2.fides_meta.references.0.dataset',
          'references to another dataset are not supported (this one is d)',
        ],
        [
          'collections.0.fields.3.fides_meta.custom_request_field',
          'custom_request_field is not supported (the service has no custom request fields)',
        ],
      ],
    );
  });
});
