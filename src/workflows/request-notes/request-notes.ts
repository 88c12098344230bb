import type { Executor } from '../../db/executor.js';
import { type Bound, bindDeps } from '../../lib/bind-deps.js';
import type { Clock } from '../../lib/clock.js';
import { addRequestNote } from './add-request-note.js';
import { listRequestNotes } from './list-request-notes.js';

/** Internal working notes on a request (PRODUCT §2.16), bound. */
export interface RequestNotesService {
  /** {@link addRequestNote}. */
  readonly add: Bound<typeof addRequestNote>;
  /** {@link listRequestNotes}. */
  readonly list: Bound<typeof listRequestNotes>;
}

/** Binds the notes to `deps` (src/services.ts wires them once). */
export function bindRequestNotes(deps: { db: Executor; clock: Clock }): RequestNotesService {
  return { add: bindDeps(addRequestNote, deps), list: bindDeps(listRequestNotes, deps) };
}
