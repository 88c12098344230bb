/**
 * The database's own rules, pure parts (PRODUCT §2.17): what a refused write's driver error names
 * (never a value, even one built to look like the message's own phrases), which masking a column
 * refuses, and what `dataset generate` proposes for a column.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ColumnFacts, TableFacts } from '../../src/modules/connectors/catalog.js';
import { classifyDriverError, ConnectorError } from '../../src/modules/connectors/connector.errors.js';
import type { Collection, Field } from '../../src/modules/connectors/dataset.types.js';
import { proposeField } from '../../src/modules/connectors/generate-proposal.fns.js';
import { cannotMask, maskingRefusal } from '../../src/modules/connectors/masking-fit.fns.js';
import { refusalHints } from '../../src/modules/connectors/write-refusal.fns.js';

const column = (over: Partial<ColumnFacts> = {}): ColumnFacts => ({
  name: 'email',
  dataType: 'character varying',
  length: 120,
  nullable: true,
  primaryKey: false,
  unique: false,
  references: null,
  checks: [],
  indexed: false,
  ...over,
});
const field = (over: Partial<Field> = {}): Field => ({
  name: 'email',
  data_categories: ['user.contact.email'],
  identity: null,
  references: [],
  primary_key: false,
  data_type: null,
  length: null,
  read_only: false,
  masking: null,
  ...over,
});
const mysqlError = (errno: number, message: string) => Object.assign(new Error(message), { errno, code: 'X', sqlState: '23000' });

describe('refusalHints', () => {
  it('PostgreSQL: the column and constraint fields; 22001 the type and length of its message', () => {
    assert.deepEqual(refusalHints({ code: '23502', column: 'email', message: 'null value in column "email"' }), {
      column: 'email',
      constraint: null,
      tooLongFor: null,
      fromMessage: false,
    });
    assert.equal(refusalHints({ code: '23505', constraint: 'customer_email_key', message: '' }).constraint, 'customer_email_key');
    assert.deepEqual(refusalHints({ code: '22001', message: 'value too long for type character varying(20)' }).tooLongFor, {
      type: 'character varying',
      length: 20,
    });
  });

  it('MySQL/MariaDB: the identifier after the last fixed phrase, never the value, even a value that mimics the phrase', () => {
    assert.equal(refusalHints(mysqlError(1048, "Column 'email' cannot be null")).column, 'email');
    const dup = refusalHints(mysqlError(1062, "Duplicate entry 'x' for key 'fake' for key 'customer.username'"));
    assert.deepEqual([dup.column, dup.constraint, dup.fromMessage], [null, 'customer.username', true]);
    assert.equal(refusalHints(mysqlError(1406, "Data too long for column 'postal_code' at row 1")).column, 'postal_code');
    assert.equal(
      refusalHints(mysqlError(1366, "Incorrect integer value: 'a' for column `x` at row 9' for column `db`.`t`.`total` at row 1"))
        .column,
      'total',
    );
    assert.equal(
      refusalHints(mysqlError(4025, 'CONSTRAINT `customer.email` failed for `db`.`customer`')).constraint,
      'customer.email',
    );
    assert.equal(refusalHints(mysqlError(3819, "Check constraint 'customer_chk_1' is violated.")).constraint, 'customer_chk_1');
    const fk = refusalHints(
      mysqlError(
        1452,
        'Cannot add or update a child row: a foreign key constraint fails (`db`.`t`, CONSTRAINT `t_ibfk_2` FOREIGN KEY (`g`) REFERENCES `p` (`id`))',
      ),
    );
    assert.deepEqual([fk.column, fk.constraint], ['g', 't_ibfk_2']);
  });

  it('classifies the column rules by SQLSTATE and by MySQL error number (MariaDB 4025 has a MySQL name of another error)', () => {
    assert.equal(classifyDriverError({ code: '23502' }).reason, 'not_null');
    assert.equal(classifyDriverError({ code: '23505' }).reason, 'unique');
    assert.equal(classifyDriverError({ code: '22001' }).reason, 'too_long');
    assert.equal(classifyDriverError({ errno: 4025, code: 'ER_INNODB_AUTOEXTEND_SIZE_OUT_OF_RANGE' }).reason, 'check');
    assert.equal(classifyDriverError({ errno: 1062, code: 'ER_DUP_ENTRY' }).reason, 'unique');
    assert.equal(classifyDriverError({ code: '3D000' }).reason, 'missing_database');
    const login = new ConnectorError('authentication', 'shop-db', null, '28P01');
    assert.equal(login.retryable, false, 'a refused login is not retried');
    const at = new ConnectorError('not_null', 'shop-db', 'customer', '23502', { column: 'email' });
    assert.match(at.message, /^system shop-db, collection customer, column email: the column is NOT NULL/);
  });
});

describe('maskingRefusal and cannotMask', () => {
  it('NOT NULL with null, UNIQUE with one fixed value, longer than the column; the fitting strategies pass', () => {
    const rewrite = (value: string) => ({ strategy: 'string_rewrite' as const, rewrite_value: value, suffix: null });
    assert.match(maskingRefusal(field(), column({ nullable: false })) ?? '', /NOT NULL/);
    assert.equal(maskingRefusal(field(), column({ unique: true })), null, 'NULL passes UNIQUE');
    assert.match(maskingRefusal(field({ masking: rewrite('gone') }), column({ unique: true })) ?? '', /UNIQUE/);
    assert.equal(
      maskingRefusal(
        field({ masking: { strategy: 'random_string_rewrite', length: 16, suffix: '@masked.invalid' } }),
        column({ unique: true, nullable: false }),
      ),
      null,
    );
    assert.equal(maskingRefusal(field({ masking: { strategy: 'hmac' } }), column({ unique: true, length: 64 })), null);
    assert.match(
      maskingRefusal(field({ masking: { strategy: 'hmac' } }), column({ length: 40 })) ?? '',
      /64 characters.*at most 40/,
    );
    assert.equal(
      maskingRefusal(field({ masking: { strategy: 'hmac' }, length: 40 }), column({ length: 40 })),
      null,
      'cut to length',
    );
  });

  it('only fields an erasure may write: never keys, read_only, system-only fields or a delete collection', () => {
    const table: TableFacts = {
      name: 'c',
      estimatedRows: 1,
      columns: new Map(['id', 'a', 'b', 'c', 'd'].map((n) => [n, column({ name: n, nullable: false })])),
    };
    const fields = [
      field({ name: 'id', primary_key: true }),
      field({ name: 'a', read_only: true }),
      field({ name: 'b', data_categories: ['system.operations'] }),
      field({ name: 'c' }),
      field({ name: 'd', data_categories: ['user.name'] }),
    ];
    const collection: Collection = { name: 'c', position: 0, fields, after: [], erase_after: [], delete_rows: false };
    assert.deepEqual(
      cannotMask(collection, table, null).map((m) => m.field),
      ['c', 'd'],
    );
    assert.deepEqual(
      cannotMask(collection, table, (f) => f.data_categories.includes('user.name')).map((m) => m.field),
      ['d'],
    );
    assert.deepEqual(cannotMask({ ...collection, delete_rows: true }, table, null), []);
  });
});

describe('proposeField', () => {
  it('keys read_only; NOT NULL UNIQUE e-mail random with the address suffix; NOT NULL text string_rewrite cut to the length', () => {
    const email = proposeField('d', column({ nullable: false, unique: true, checks: ["c_check: CHECK (email LIKE '%@%')"] }));
    assert.deepEqual((email.field.fides_meta as Record<string, unknown>).masking_strategy_override, {
      strategy: 'random_string_rewrite',
      configuration: { length: 16, format_preservation: { suffix: '@masked.invalid' } },
    });
    assert.match(email.why ?? '', /^ email: NOT NULL, UNIQUE, CHECK \(email LIKE '%@%'\): random_string_rewrite/);
    const short = proposeField('d', column({ name: 'code', nullable: false, unique: true, length: 10 }));
    assert.deepEqual((short.field.fides_meta as Record<string, unknown>).masking_strategy_override, {
      strategy: 'random_string_rewrite',
      configuration: { length: 10 },
    });
    const name = proposeField('d', column({ name: 'name', nullable: false, length: 3 }));
    assert.deepEqual((name.field.fides_meta as Record<string, unknown>).masking_strategy_override, {
      strategy: 'string_rewrite',
      configuration: { rewrite_value: 'era' },
    });
    const fk = proposeField('d', column({ name: 'customer_id', dataType: 'integer', length: null, references: 'customer.id' }));
    assert.equal((fk.field.fides_meta as Record<string, unknown>).read_only, true);
    assert.deepEqual((fk.field.fides_meta as Record<string, unknown>).references, [{ dataset: 'd', field: 'customer.id' }]);
    const check = proposeField('d', column({ name: 'x', checks: ["k: CHECK (x <> 'a'\n OR true)"] }));
    assert.ok(!(check.why ?? '').includes('\n'), 'a comment stays one line');
  });
});
