import type { ControllerProfileFields } from '../controllers/controller.types.js';
import {
  ACCESS_FORMAT,
  type AutomatedDecisionStatement,
  EXPORT_FORMAT,
  type PackageStatements,
  type RightStatement,
} from './package.types.js';

/** Where the subject writes to use a right: the controller's contact, or the workspace in general. */
function contactWords(controller: ControllerProfileFields | null): string {
  return controller ? `by writing to ${controller.name} at ${controller.contact_email}` : 'by writing to the controller';
}

function complaintStatement(controller: ControllerProfileFields | null): string {
  const authority = controller?.supervisory_authority;
  const where = authority
    ? `, for example to ${authority.name} (${authority.url})`
    : ', in particular in the Member State of your habitual residence, place of work or of the alleged infringement';
  return `You have the right to lodge a complaint with a supervisory authority${where}.`;
}

/**
 * The further rights of the data subject (GDPR Art. 15(1)(e)–(f), with Art. 16, 17, 18, 20,
 * 21 and 77), worded for the controller when it is known.
 */
export function rightStatements(controller: ControllerProfileFields | null): RightStatement[] {
  const ask = contactWords(controller);
  return [
    {
      right: 'rectification',
      article: 'GDPR Art. 16',
      statement: `You may have inaccurate personal data corrected and incomplete data completed, ${ask}.`,
    },
    {
      right: 'erasure',
      article: 'GDPR Art. 17',
      statement: `You may have your personal data erased where it is no longer needed or processed unlawfully, ${ask}.`,
    },
    {
      right: 'restriction',
      article: 'GDPR Art. 18',
      statement: `You may have the processing restricted while its accuracy or lawfulness is checked, ${ask}.`,
    },
    {
      right: 'objection',
      article: 'GDPR Art. 21',
      statement: `You may object, on grounds relating to your particular situation, to processing based on legitimate interests, ${ask}.`,
    },
    {
      right: 'portability',
      article: 'GDPR Art. 20',
      statement: `You may receive the data you provided in a structured, machine-readable format (an export request), ${ask}.`,
    },
    { right: 'complaint', article: 'GDPR Art. 77', statement: complaintStatement(controller) },
  ];
}

/** Art. 15(1)(h): no automated decision-making, including profiling, applies. */
export const NO_AUTOMATED_DECISIONS: AutomatedDecisionStatement = {
  applies: false,
  statement:
    'No decision about you is taken by automated means, and no profiling is carried out (GDPR Art. 22(1) and (4)); ' +
    'the policy decisions recorded with pull/merge-request events concern repositories, not you.',
};

/** The {@link PackageStatements} for a package built (or served) with `controller` as the workspace's profile. */
export function packageStatements(controller: ControllerProfileFields | null): PackageStatements {
  return { controller, rights: rightStatements(controller), automated_decision_making: NO_AUTOMATED_DECISIONS };
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
 * (docs/decisions.md). A package that names its controller keeps it. Text that is not an access
 * or export package, or a package that has them all, is returned unchanged.
 */
export function withStatements(json: string, controller: ControllerProfileFields | null): string {
  const pkg = parsedObject(json);
  if (pkg === null || !needsStatements(json)) return json;
  const named = 'controller' in pkg ? (pkg.controller as ControllerProfileFields | null) : controller;
  return JSON.stringify({ ...pkg, ...packageStatements(named) });
}
