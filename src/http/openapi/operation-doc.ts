import type { TSchema } from '@sinclair/typebox';

/** What the OpenAPI document says of one operation beyond its route's validation schemas. */
export interface OperationDoc {
  /** Unique, camelCase: client generators name methods after it. */
  operationId: string;
  summary: string;
  description: string;
  /** Answers the route can give that its schema does not list (or lists wrongly), by status. */
  responses?: Record<number, TSchema>;
}

/** The summary and description of an operator action on a privacy request (audited with the operator and the reason). */
export const requestAction = (verb: string, what: string, extra = ''): Pick<OperationDoc, 'summary' | 'description'> => ({
  summary: `${verb} a privacy request`,
  description: `${what} Audited with the operator and the reason.${extra}`,
});
