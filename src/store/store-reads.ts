/**
 * Which store methods only read, for whoever decides what a failure may have changed: the
 * SQLite guard (a failed read leaves readiness alone) and the core's answer deadline (a read
 * given up changed nothing).
 */

/**
 * Methods of the stores that only read. Any other method counts as a write, so a method added
 * later is treated as one until it is listed here.
 */
export const STORE_READS: ReadonlySet<string> = new Set([
  "getSettings", "listSubscriptions", "activeSchedules", "subscriptionsOn", "queuedDeliveries", "deliveryCounts",
  "leaseHolder", "listAlerts", "armedAlerts", "sightings", "queuedFirings", "sendersInFlight", "firingCounts", "listWatched",
  "watchedTokenIds", "getAction", "isOpen", "health",
  "currentCall", "boardCalls", "memberCalls", "findCaller", "tokenCalls", "tokensToSweep", "sweepStatus", "samplesSince", "recentSends",
]);
