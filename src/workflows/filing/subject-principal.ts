import type { Principal } from '../../modules/principals/principal.js';
import { subjectPseudonym } from '../../modules/privacy-center/privacy-center.fns.js';

/**
 * The person acting through the privacy center, as a principal of one workspace: its id is
 * `subject:<keyed pseudonym of the address>` and its name "data subject" (PRODUCT §2.15), so the
 * audit never holds the address.
 */
export function subjectPrincipal(pseudonymKey: string, workspaceId: string, email: string): Principal {
  return {
    id: `subject:${subjectPseudonym(pseudonymKey, email)}`,
    name: 'data subject',
    scopes: new Set(),
    workspaces: new Set([workspaceId]),
  };
}
