import type { ControllerProfileFields } from '../controllers/controller.types.js';
import type { Regulation } from '../request-model/request-model.js';
import { ACCESS_FORMAT, type AutomatedDecisionStatement, EXPORT_FORMAT, type PackageStatements } from './package.types.js';
import { noAutomatedDecisions, rightsUnder } from './rights.fns.js';

/** GDPR Art. 15(1)(h), 22: no automated decision-making, including profiling, applies (in plain words, {@link noAutomatedDecisions}). */
export function automatedDecisions(regulations: readonly Regulation[]): AutomatedDecisionStatement {
  return { applies: false, statement: noAutomatedDecisions(regulations) };
}

/**
 * The {@link PackageStatements} for a package built (or served) with `controller` as the
 * workspace's profile, for a request under `regulations` (its rights: {@link rightsUnder}).
 */
export function packageStatements(
  controller: ControllerProfileFields | null,
  regulations: readonly Regulation[],
): PackageStatements {
  return { controller, rights: rightsUnder(regulations, controller), automated_decision_making: automatedDecisions(regulations) };
}

function parsedObject(json: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * True when a stored package (JSON text) is an access or export package (by its `format`) that
 * lacks any of the {@link PackageStatements}; anything else is served as stored.
 */
export function needsStatements(json: string): boolean {
  const pkg = parsedObject(json);
  if (pkg === null || (pkg.format !== ACCESS_FORMAT && pkg.format !== EXPORT_FORMAT)) return false;
  return !('controller' in pkg && 'rights' in pkg && 'automated_decision_making' in pkg);
}

/**
 * A stored package (JSON text) with the {@link PackageStatements} it lacks added: packages built
 * before they existed are served with `controller`, the workspace's profile as it is now
 * (docs/decisions.md), and the rights of the request's `regulations`. A package that names its controller keeps it. Text that is not an access
 * or export package, or a package that has them all, is returned unchanged.
 */
export function withStatements(
  json: string,
  controller: ControllerProfileFields | null,
  regulations: readonly Regulation[],
): string {
  const pkg = parsedObject(json);
  if (pkg === null || !needsStatements(json)) return json;
  const named = 'controller' in pkg ? (pkg.controller as ControllerProfileFields | null) : controller;
  return JSON.stringify({ ...pkg, ...packageStatements(named, regulations) });
}
