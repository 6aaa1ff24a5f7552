/** Days of compute-unit spend kept: the pace reads today's only; a week is there to look back on. */
export const KEEP_UNIT_DAYS = 7;

/**
 * Calls `forget(before)` with the first day no longer kept, once for each day it is asked about:
 * every market call adds its units, and dropping old days at each one was a write per call.
 */
export function forgetOnceADay(forget: (before: number) => unknown): (day: number) => Promise<void> {
  let forgotBefore: number | undefined;
  return async (day) => {
    const before = day - KEEP_UNIT_DAYS;
    if (forgotBefore === before) return;
    await forget(before);
    forgotBefore = before;
  };
}
