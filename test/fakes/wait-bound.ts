/**
 * How long a test's wait may last before it fails with what it saw. Every wait ends on the
 * event it waits for (a request, a message, a log line); the bound only turns a broken run
 * into a readable error just inside vitest's 30 s limit. On a shared CI machine with every
 * core busy a reply can take many seconds, so a shorter bound asked by a caller is raised to
 * this one: how fast the machine is today must never decide a test.
 */
export const WAIT_BOUND_MS = 25_000;

/** The bound of one wait: the caller's, but never below `WAIT_BOUND_MS`. */
export function waitBound(requestedMs?: number): number {
  return Math.max(requestedMs ?? 0, WAIT_BOUND_MS);
}
