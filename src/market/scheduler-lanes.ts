/**
 * The scheduler's lanes, highest priority first: a person waiting, then alert and watchlist
 * checks, then the buy feed's polls, then digests, then cache refreshes and prefetch. A waiting
 * call of a higher lane always leaves before one of a lower lane (a lane held to its share of
 * the plan steps aside while it waits for that share).
 */
export const LANES = ["people", "alerts", "feed", "digest", "refresh"] as const;

export type Lane = (typeof LANES)[number];

/** The lane alert and watchlist checks run in. */
export const ALERT_LANE: Lane = "alerts";
/** The lane the buy feed's swap polls run in. */
export const FEED_LANE: Lane = "feed";
/** The lane scheduled digests run in. */
export const DIGEST_LANE: Lane = "digest";
