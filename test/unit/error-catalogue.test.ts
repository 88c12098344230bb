/**
 * The one error catalogue (src/http/errors/error-catalogue.ts): every entry is an answer the
 * error handler can render (an HTTP error status with a sentence, or a 422 of Pydantic items),
 * and domain errors reach it through one mapping (src/http/errors/domain-errors.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromDomainError } from '../../src/http/errors/domain-errors.js';
import { errors } from '../../src/http/errors/error-catalogue.js';
import { HttpError, RequestValidationError } from '../../src/http/errors/http-error.js';
import { InvalidCursorError } from '../../src/lib/cursor.js';
import {
  InvalidTransitionError,
  RequestNotFoundError,
  SelfApprovalError,
} from '../../src/modules/privacy-requests/privacy-request.errors.js';
import { NotCorrectableError } from '../../src/workflows/subject-data/correction.js';

/** Entries that take something other than strings. */
const SPECIAL_ARGS: Record<string, unknown[]> = {
  pluginClientError: [403],
  tooManyRequests: [7],
  correctionRefused: ['no changes', []],
  taskResultRefused: [[{ loc: ['body', 'records', 'user.name'], input: 'user.name', problem: 'outside the task' }]],
  taskDataTooLarge: ['MAX_TASK_DATA_BYTES', 5000, 4096],
  dataSystemLimit: [500],
  endpointLimit: [100],
  requestTypeNotOffered: ['deletion', ['access', 'export']],
  dataSystemRefused: [
    [{ loc: ['body', 'dataset', 'collections', 0], msg: 'unknown data category user.nope', type: 'value_error' }],
    { dataset: { collections: [{ name: 'customer' }] } },
  ],
};

describe('error catalogue', () => {
  it('every entry is a 4xx/5xx with a sentence, or a 422 with Pydantic items', () => {
    const build = errors as Record<string, (...args: unknown[]) => unknown>;
    for (const [name, make] of Object.entries(build)) {
      const error = make(...(SPECIAL_ARGS[name] ?? ['x', 'y']));
      if (error instanceof RequestValidationError) {
        assert.equal(error.statusCode, 422, name);
        assert.ok(error.errors.length > 0 && error.errors.every((e) => typeof e.type === 'string' && Array.isArray(e.loc)), name);
      } else {
        assert.ok(error instanceof HttpError, `${name} is neither HttpError nor RequestValidationError`);
        assert.ok(error.statusCode >= 400 && error.statusCode <= 599, `${name}: ${error.statusCode}`);
        assert.ok(error.detail.length > 0, name);
      }
    }
  });

  it('maps each domain error to its answer, and nothing else', () => {
    assert.equal((fromDomainError(new RequestNotFoundError('pr_1')) as HttpError).statusCode, 404);
    const transition = fromDomainError(new InvalidTransitionError('corrections', 'completed')) as HttpError;
    assert.deepEqual([transition.statusCode, transition.detail], [409, 'Cannot correct a request in status completed']);
    assert.equal((fromDomainError(new SelfApprovalError()) as HttpError).statusCode, 403);
    const cursor = fromDomainError(new InvalidCursorError('bad'));
    assert.ok(cursor instanceof RequestValidationError);
    assert.deepEqual([cursor.errors[0]?.loc, cursor.errors[0]?.input], [['query', 'cursor'], 'bad']);
    const refused = fromDomainError(new NotCorrectableError('invalid fields', [{ field: 'email', problem: 'invalid_value' }]));
    assert.ok(refused instanceof RequestValidationError);
    assert.deepEqual(refused.errors[0]?.loc, ['body', 'changes', 'email']);
    assert.equal(refused.errors[0]?.msg, 'Value error, invalid value');
    assert.equal(fromDomainError(new Error('anything else')), null);
  });
});
