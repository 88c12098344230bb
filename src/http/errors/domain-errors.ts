import { InvalidCursorError } from '../../lib/cursor.js';
import {
  DeadlinePassedError,
  NotAwaitingIdentityReviewError,
  NotWaitingAsRepeatError,
  InvalidTransitionError,
  ReceivedAtOutOfRangeError,
  RequestNotFoundError,
  SelfApprovalError,
} from '../../modules/privacy-requests/privacy-request.errors.js';
import {
  DataSystemLimitError,
  DataSystemNotFoundError,
  DataSystemRefusedError,
  DatasetTooLargeError,
  EndpointNotInWorkspaceError,
  FidesKeyTakenError,
  NotADatabaseSystemError,
  SystemKeyTakenError,
} from '../../modules/data-systems/data-system.types.js';
import { ConnectorError } from '../../modules/connectors/connectors.js';
import {
  DataTaskNotFoundError,
  TaskAlreadyFinalError,
  TaskDataTooLargeError,
  TaskResultRefusedError,
} from '../../modules/data-systems/data-task.errors.js';
import { NotCorrectableError } from '../../workflows/subject-data/correction.js';
import { EndpointLimitError, EndpointNotFoundError } from '../../modules/outbound-events/webhook-endpoint.service.js';
import {
  EndpointDisabledError,
  InvalidMessageCursorError,
  MessageNotFoundError,
} from '../../modules/outbound-events/message-log.service.js';
import {
  NotAwaitingReviewError,
  PathAlreadyWithheldError,
  PathNotInPackageError,
  RedactionNotFoundError,
  SelfReleaseError,
} from '../../modules/package-review/package-review.errors.js';
import {
  DrpAgentIdTakenError,
  DrpAgentNotFoundError,
  DrpBusinessIdTakenError,
  VerifyKeyInvalidError,
} from '../../modules/drp/drp-admin.errors.js';
import { verifyKeyProblemMessage } from '../../modules/drp/signed-body.fns.js';
import { errors } from './error-catalogue.js';
import type { HttpError, RequestValidationError } from './http-error.js';

/**
 * The one place where the domain's errors (classes of src/modules, which know nothing of HTTP)
 * become answers of the error catalogue; the error handler calls it for every error a route
 * throws. Errors whose answer needs the request (a reused Idempotency-Key echoes the key, an
 * integration's bad field echoes its input) are mapped by their route.
 *
 * @returns the answer, or null when `error` is not a domain error this maps.
 */
export function fromDomainError(error: unknown): HttpError | RequestValidationError | null {
  if (error instanceof RequestNotFoundError) return errors.notFound('Privacy request');
  if (error instanceof InvalidTransitionError) return errors.invalidTransition(error.action, error.status);
  if (error instanceof SelfApprovalError) return errors.selfApproval();
  if (error instanceof DeadlinePassedError) return errors.deadlinePassed(error.dueAt);
  if (error instanceof NotAwaitingIdentityReviewError) return errors.notAwaitingIdentityReview(error.status);
  if (error instanceof NotWaitingAsRepeatError) return errors.notWaitingAsRepeat(error.status);
  if (error instanceof NotAwaitingReviewError) return errors.notAwaitingReview(error.status);
  if (error instanceof PathNotInPackageError) return errors.pathNotInPackage(error.path);
  if (error instanceof PathAlreadyWithheldError) return errors.pathAlreadyWithheld(error.redactionId);
  if (error instanceof RedactionNotFoundError) return errors.notFound('Redaction');
  if (error instanceof SelfReleaseError) return errors.selfRelease();
  if (error instanceof ReceivedAtOutOfRangeError) return errors.receivedAtOutOfRange(error.input, error.problem);
  if (error instanceof NotCorrectableError) return errors.correctionRefused(error.reason, error.problems);
  if (error instanceof InvalidCursorError) return errors.invalidCursor(error.cursor);
  if (error instanceof EndpointNotFoundError) return errors.notFound('Webhook endpoint');
  if (error instanceof EndpointLimitError) return errors.endpointLimit(error.limit);
  if (error instanceof EndpointDisabledError) return errors.endpointDisabled();
  if (error instanceof MessageNotFoundError) return errors.notFound('Message');
  // The message log's own cursors (not yet bound to their query) keep their 400.
  if (error instanceof InvalidMessageCursorError) return errors.unissuedCursor();
  return fromDrpError(error) ?? fromDataTaskError(error);
}

/** The DRP administration's errors (PRODUCT §2.19). */
function fromDrpError(error: unknown): HttpError | RequestValidationError | null {
  if (error instanceof DrpBusinessIdTakenError) return errors.drpBusinessIdTaken(error.businessId);
  if (error instanceof DrpAgentIdTakenError) return errors.drpAgentIdTaken(error.agentId);
  if (error instanceof DrpAgentNotFoundError) return errors.notFound('DRP agent');
  if (error instanceof VerifyKeyInvalidError) return errors.verifyKeyInvalid(verifyKeyProblemMessage(error.problem), error.input);
  return null;
}

/** The data-systems module's errors (PRODUCT.md §2.9). */
function fromDataTaskError(error: unknown): HttpError | RequestValidationError | null {
  if (error instanceof DataSystemNotFoundError) return errors.notFound('Data system');
  if (error instanceof SystemKeyTakenError) return errors.systemKeyTaken(error.key);
  if (error instanceof EndpointNotInWorkspaceError) return errors.endpointNotInWorkspace(error.endpointId);
  if (error instanceof FidesKeyTakenError) return errors.fidesKeyTaken(error.fidesKey);
  if (error instanceof DataSystemLimitError) return errors.dataSystemLimit(error.limit);
  if (error instanceof DataSystemRefusedError) return errors.dataSystemRefused(error.problems, error.shown);
  if (error instanceof DatasetTooLargeError) return errors.datasetTooLarge(error.message);
  if (error instanceof NotADatabaseSystemError) return errors.notADatabaseSystem(error.kind);
  if (error instanceof ConnectorError) return errors.connectorFailed(error.message);
  if (error instanceof DataTaskNotFoundError) return errors.notFound('Data task');
  if (error instanceof TaskAlreadyFinalError) return errors.taskAlreadyFinal(error.status);
  if (error instanceof TaskResultRefusedError) return errors.taskResultRefused(error.problems);
  if (error instanceof TaskDataTooLargeError) return errors.taskDataTooLarge(error.limit, error.bytes, error.max);
  return null;
}
