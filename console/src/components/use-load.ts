// Loading what a view shows whenever its inputs change, latest wins.
import { useEffect, useState } from 'preact/hooks';

/**
 * Runs `work` now and whenever `deps` change. A newer run supersedes an older one: the older
 * one's `isCurrent()` turns false, so it must not set state after its awaits, and its error is
 * dropped. Unlike `useSubmit` (one submission at a time, a second click ignored), a change of
 * inputs while a load is in flight is never lost: the console would otherwise keep showing what
 * the first inputs loaded (a request's tasks found after its timeline arrived, for instance).
 * Returns the current run's error (null while it runs or after it succeeded).
 */
export function useLoad(work: (isCurrent: () => boolean) => Promise<void>, deps: unknown[]): { error: unknown } {
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let current = true;
    setError(null);
    work(() => current).catch((caught: unknown) => {
      if (current) setError(caught);
    });
    return () => {
      current = false;
    };
  }, deps);
  return { error };
}
