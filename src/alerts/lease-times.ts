/**
 * How long the alert leases last and how often they are renewed, from the check period. A
 * worker SIGKILLed right after renewing leaves its lease for `ttlMs`; the others try every
 * `renewMs` and check at once when they take it, so checks resume within `ttlMs + renewMs`:
 * 50 s at the default 30 s period, inside the minute the bot promises. The holder may miss two
 * renewals in a row (a slow database) before it loses the lease.
 */
export interface LeaseTimes {
  ttlMs: number;
  renewMs: number;
}

/** A lease never shorter than this, so that a short period does not make a brief stall cost the lease. */
const MIN_TTL_MS = 30_000;

export function alertLeaseTimes(checkMs: number): LeaseTimes {
  const renewMs = Math.max(1, Math.floor(checkMs / 3));
  return { ttlMs: Math.max(checkMs + renewMs, MIN_TTL_MS), renewMs };
}
