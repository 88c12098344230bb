/**
 * A use case `(deps, ...args) => result` with its `deps` bound: `(...args) => result`, what
 * transport calls (src/workflows/, "one exported function per file, dependencies first").
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- matches any deps type; only the rest is kept
export type Bound<F> = F extends (deps: any, ...rest: infer A) => infer R ? (...rest: A) => R : never;

/**
 * Binds `deps` as the first argument of `fn`: `bindDeps(fileRequest, deps)(principal, key, input)`
 * is `fileRequest(deps, principal, key, input)`.
 */
export function bindDeps<D, A extends unknown[], R>(fn: (deps: D, ...rest: A) => R, deps: D): (...rest: A) => R {
  return (...rest) => fn(deps, ...rest);
}
