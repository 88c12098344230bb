/** Edit distance (insertions, deletions, substitutions; an adjacent swap counts 1). */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The known flag nearest to `name` (without dashes): within an edit distance of 2 (1 for names
 * of up to 4 characters), or one the name begins (`--work` → `--workspace`); null when none is near.
 */
export function nearestFlag(name: string, known: readonly string[]): string | null {
  let best: { flag: string; score: number } | null = null;
  for (const flag of known) {
    const score = name.length >= 3 && flag.startsWith(name) ? 0.5 : distance(name, flag);
    if (score <= (name.length <= 4 ? 1 : 2) && (best === null || score < best.score)) best = { flag, score };
  }
  return best?.flag ?? null;
}
