/** A virtual clock for the paced queue: sleeping advances time, so pacing is checked without waiting. */
export function virtualClock(start = 1_000_000) {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
    advance: (ms: number) => (t += ms),
  };
}
