import { readPreferenceRows } from '../../modules/opt-outs/opt-out.repository.js';
import { preferencesOf } from '../../modules/opt-outs/opt-out.fns.js';
import type { Preferences } from '../../modules/opt-outs/opt-out.types.js';
import type { OptOutDeps } from './deps.js';

/** A subject's standing choices, one per kind (`not_set` where none was accepted; PRODUCT §2.18). */
export async function readPreferences(
  deps: Pick<OptOutDeps, 'db'>,
  subject: { workspace_id: string; subject_provider: string; subject_id: string },
): Promise<Preferences> {
  return preferencesOf(await readPreferenceRows(deps.db, subject.workspace_id, subject.subject_provider, subject.subject_id));
}
