/**
 * The request's own identity as the identity a data system is searched by (PRODUCT §2.17): the
 * dataset name a provider stands for, the values (an address as given and lower-cased, a phone
 * number in E.164), the phone check behind the create 422, how a letter names identities, when a
 * database system is not searchable, and what counts as "found something" for the identity review.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateValue } from '../../src/http/validation/validate-value.js';
import type { ErrorItem } from '../../src/http/validation/error-item.js';
import { notSearchedSentence } from '../../src/http/letters/not-searched-part.js';
import { CreatePrivacyRequestBody } from '../../src/http/schemas/privacy-request.schemas.js';
import { readDataset, type Dataset } from '../../src/modules/connectors/connectors.js';
import { notSearchable } from '../../src/modules/data-systems/searchable.fns.js';
import { taskFoundSomething } from '../../src/modules/privacy-requests/lifecycle/lifecycle.fns.js';
import {
  identityWords,
  normalizePhoneNumber,
  requestIdentity,
  subjectIdProblem,
} from '../../src/modules/subject-data/request-identity.fns.js';

describe('phone numbers (E.164 after punctuation)', () => {
  it('removes spaces, dashes, dots and parentheses, then needs +, a country code not starting with 0, 7–15 digits', () => {
    assert.equal(normalizePhoneNumber('+44 20 7946 0958'), '+442079460958');
    assert.equal(normalizePhoneNumber(' +1 (415) 555-01.23 '), '+14155550123');
    assert.equal(normalizePhoneNumber('+1234567'), '+1234567', '7 digits is the shortest');
    assert.equal(normalizePhoneNumber(`+${'9'.repeat(15)}`), `+${'9'.repeat(15)}`);
    for (const bad of ['004930123456', '+0301234567', '+123456', `+${'9'.repeat(16)}`, '+49 30 CALL', '+49/30/1234567', '', '+'])
      assert.equal(normalizePhoneNumber(bad), null, bad);
    assert.equal(normalizePhoneNumber('+4930123456\n'), null, 'a newline is not punctuation');
    assert.equal(normalizePhoneNumber('+49\t30123456'), null, 'neither is a tab');
  });

  it('subject_id is refused only for provider "phone" (exactly), with the Pydantic-like message', () => {
    assert.equal(subjectIdProblem('phone', '030 1234'), 'value is not a valid phone number');
    assert.equal(subjectIdProblem('phone', '+49 30 1234567'), null);
    assert.equal(subjectIdProblem('Phone', '030'), null);
    assert.equal(subjectIdProblem('email', 'not an address'), null);
  });

  it('the create body: a 422 value_error at ["body","subject_id"], only once every other field passed', () => {
    const body = {
      request_type: 'access',
      scope: ['user'],
      subject_id: '030 1234567',
      subject_provider: 'phone',
      workspace_id: 'acme',
      client_request_id: 'req-00000001',
      intake_ref: 'ticket-1',
    };
    const errors: ErrorItem[] = [];
    validateValue(CreatePrivacyRequestBody, body, ['body'], 'strict', errors);
    assert.deepEqual(errors, [
      { type: 'value_error', loc: ['body', 'subject_id'], msg: 'value is not a valid phone number', input: '030 1234567' },
    ]);
    const other: ErrorItem[] = [];
    validateValue(CreatePrivacyRequestBody, { ...body, workspace_id: '' }, ['body'], 'strict', other);
    assert.deepEqual(
      other.map((e) => e.loc),
      [['body', 'workspace_id']],
    );
    const fine: ErrorItem[] = [];
    validateValue(CreatePrivacyRequestBody, { ...body, subject_id: '+49 (30) 1234-567' }, ['body'], 'strict', fine);
    assert.deepEqual(fine, []);
  });
});

describe("the request's own identity under its dataset name", () => {
  it('email: trimmed, as given and lower-cased (each once)', () => {
    assert.deepEqual(requestIdentity('email', '  Ada@Example.COM '), {
      name: 'email',
      values: ['Ada@Example.COM', 'ada@example.com'],
    });
    assert.deepEqual(requestIdentity('email', 'ada@example.com'), { name: 'email', values: ['ada@example.com'] });
  });

  it('phone: phone_number in E.164; a number that is not one gives no value', () => {
    assert.deepEqual(requestIdentity('phone', '+49 (30) 1234-567'), { name: 'phone_number', values: ['+49301234567'] });
    assert.deepEqual(requestIdentity('phone', '030'), { name: 'phone_number', values: [] });
  });

  it('any other provider P: P_id (P lower-cased), the id as given', () => {
    assert.deepEqual(requestIdentity('GitHub', '583231'), { name: 'github_id', values: ['583231'] });
    assert.deepEqual(requestIdentity('clerk', 'user_X'), { name: 'clerk_id', values: ['user_X'] });
  });

  it('a letter names identities in plain words', () => {
    assert.equal(identityWords('email'), 'e-mail address');
    assert.equal(identityWords('phone_number'), 'phone number');
    assert.equal(identityWords('username'), 'user name');
    assert.equal(identityWords('github_id'), 'GitHub account id');
    assert.equal(identityWords('clerk_id'), 'Clerk account id');
    assert.equal(identityWords('loyalty_card'), 'loyalty card');
  });
});

const SHOP = `
fides_key: s
collections:
  - name: customer
    fields:
      - name: id
        fides_meta: { primary_key: true }
      - name: github_id
        fides_meta: { identity: github_id }
      - name: handle
        fides_meta: { identity: username }
`;

describe('not_searchable', () => {
  const dataset = (readDataset(SHOP) as { dataset: Dataset }).dataset;

  it('a system none of whose identity fields the request can fill is not searchable, naming both sides', () => {
    assert.deepEqual(notSearchable(dataset, { email: ['ada@example.com'] }), {
      searched_by: ['github_id', 'username'],
      request_had: ['email'],
    });
    assert.deepEqual(notSearchable(dataset, { email: ['a@x'], github_id: [] }), {
      searched_by: ['github_id', 'username'],
      request_had: ['email'],
    });
    assert.equal(notSearchable(dataset, { email: ['a@x'], username: ['ada'] }), null);
  });

  it('the letter says it could not be searched and which identity would let it be, never "holds no data"', () => {
    const text = notSearchedSentence({ name: 'Shop accounts', searched_by: ['github_id', 'username'], request_had: ['email'] });
    assert.equal(
      text,
      'Shop accounts could not be searched with what you gave us (your e-mail address): it finds people by your GitHub account id ' +
        'or your user name. We do not know whether it holds data about you. Give us your GitHub account id or your user name and we will search it.',
    );
    assert.doesNotMatch(text, /holds no data/);
  });
});

describe('what counts as found for the identity review', () => {
  const completed = (result: object) => ({ status: 'completed', result: JSON.stringify(result) });

  it('a database system that found 0 rows found nothing, though its data lists its collections', () => {
    const zero = {
      outcome: 'completed',
      records: { 'user.contact.email': 0 },
      data: { customer: [], login: [] },
      data_by: 'collection',
      collections: { customer: { rows: 0 }, login: { rows: 0 } },
    };
    assert.equal(taskFoundSomething(completed(zero)), false);
    const dropped = { ...zero, data: undefined, data_categories: ['customer', 'login'] };
    assert.equal(taskFoundSomething(completed(dropped)), false, 'nor after its data was copied out');
    assert.equal(taskFoundSomething(completed({ ...zero, collections: { customer: { rows: 1 } } })), true);
    assert.equal(
      taskFoundSomething(completed({ outcome: 'completed', erased: {}, collections: { customer: { masked: 1, deleted: 0 } } })),
      true,
    );
  });

  it('a system whose data holds only empty values found nothing; not_searchable never finds', () => {
    assert.equal(taskFoundSomething(completed({ outcome: 'completed', data: { 'user.contact': [], 'user.name': null } })), false);
    assert.equal(taskFoundSomething(completed({ outcome: 'completed', data: { 'user.name': 'Ada' } })), true);
    assert.equal(
      taskFoundSomething({ status: 'not_searchable', result: JSON.stringify({ outcome: 'not_searchable', searched_by: ['x'] }) }),
      false,
    );
  });
});
