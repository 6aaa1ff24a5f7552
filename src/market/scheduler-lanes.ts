/**
 * The scheduler's lanes, highest priority first: a person waiting, then alert and watchlist
 * checks, then digests, then cache refreshes and prefetch. A waiting call of a higher lane
 * always leaves before one of a lower lane.
 */
export const LANES = ["people", "alerts", "digest", "refresh"] as const;

export type Lane = (typeof LANES)[number];

/** The lane alert and watchlist checks run in. */
export const ALERT_LANE: Lane = "alerts";
/** The lane scheduled digests run in. */
export const DIGEST_LANE: Lane = "digest";
