/**
 * The units of work announced to a write batcher before they can be submitted (db/write-batcher.ts,
 * "Expected units").
 *
 * @module
 */

/**
 * The longest a batch about to start waits for units announced before it, ms. A bound only: the
 * wait ends as soon as the last of them is submitted or withdrawn.
 */
export const EXPECTED_UNIT_WAIT_MS = 5;

/**
 * Announced units not yet submitted, and the one wait of a batch for them. Announcements are
 * numbered in order; a batch waits only for those made before it began to wait, so units that
 * keep coming cannot hold it back past the last of those (or past the bound).
 */
export class ExpectedUnits {
  /** Announcement numbers not yet settled, ascending (a Set keeps insertion order). */
  private readonly pending = new Set<number>();
  private announced = 0;
  /**
   * The announcements up to this number held a batch for the whole bound once: late, they hold
   * none again (an exercise stuck on a slow read must not add the bound to every batch meanwhile).
   */
  private lateUpTo = 0;
  /** While a batch waits: the last announcement it waits for, and the bound's timer. */
  private waiting: { upTo: number; timer: NodeJS.Timeout } | null = null;

  /**
   * @param waitMs - the bound of one wait, ms.
   * @param wake - called when the last unit a waiting batch waits for is settled (the batcher's
   *   pump, on the next turn: the unit is submitted right after it is settled).
   */
  constructor(
    private readonly waitMs: number,
    private readonly wake: () => void,
  ) {}

  /** Announces a unit; the function returned settles it (submitted, or not coming). Idempotent. */
  announce(): () => void {
    const number = ++this.announced;
    this.pending.add(number);
    return () => {
      if (this.pending.delete(number) && this.waiting !== null && number <= this.waiting.upTo) this.wake();
    };
  }

  /**
   * Fast path: whether a batch about to start waits for units announced before it. What it
   * saves: the commits of the small batches those units would otherwise make one after the
   * other (a commit writes the pages its units share once), for at most the bound.
   * @param roomLeft - the batch would start with room left (fewer units queued than it carries).
   * @param start - starts the batch when the bound passes first.
   * @returns true while it waits (the caller starts nothing now); false: start the batch now.
   */
  batchWaits(roomLeft: boolean, start: () => void): boolean {
    const awaited = this.oldestAwaited();
    if (roomLeft && awaited !== undefined && (this.waiting === null || awaited <= this.waiting.upTo)) {
      if (this.waiting === null) {
        const upTo = this.announced;
        const timer = setTimeout(() => {
          this.lateUpTo = upTo;
          this.waiting = null;
          start();
        }, this.waitMs);
        this.waiting = { upTo, timer };
      }
      return true;
    }
    if (this.waiting !== null) clearTimeout(this.waiting.timer);
    this.waiting = null;
    return false;
  }

  /** The oldest announcement not yet settled and not late, if any (the set is as small as the units in flight). */
  private oldestAwaited(): number | undefined {
    for (const number of this.pending) if (number > this.lateUpTo) return number;
    return undefined;
  }
}
