/**
 * The one place a failed command becomes a reply: a UserError is shown as is, and so is a token
 * the service does not know; anything else becomes one log line and one honest sentence chosen
 * by what went wrong, never a stack trace.
 */
import type { Logger } from "pino";
import { isMarketError, type MarketError, type MarketErrorKind } from "../market/errors.js";
import { isStoreError } from "../store/errors.js";
import { isUserError } from "./errors.js";
import { errorReply, type Reply } from "./reply.js";
import { storeFailureReply } from "./store-failure.js";

const SORRY = "Something went wrong on my side; it has been logged.";

/** What a user reads for each kind of market failure. */
export const MARKET_SENTENCES: Readonly<Record<MarketErrorKind, string>> = {
  timeout: "The market service is not answering; try again in a minute.",
  network: "The market service is not answering; try again in a minute.",
  server: "The market service is having trouble; try again in a minute.",
  envelope: "The market service answered with an error; try again in a minute.",
  malformed: "The market service sent an answer I could not read; try again in a minute.",
  shape: "The market service sent data in a shape I do not understand; it has been logged.",
  rate_limited: "The market service is busy right now; try again in a few seconds.",
  busy: "The market service is busy; try again in a few seconds.",
  quota: "The market service's daily quota is spent; data comes back when it resets.",
  unauthorized: "The bot's market data key was refused; tell the bot's operator.",
  not_found: "The market service does not know that token or pair.",
  bad_request: "The market service refused that request; check the chain and the address.",
  invalid_params: SORRY,
};

/** A wait as people say it: "about 20 s", "about 3 min", "about an hour", "about 5 h". */
export function aboutWait(ms: number): string {
  const s = ms / 1000;
  if (s <= 1) return "about a second";
  if (s < 60) return `about ${s < 10 ? Math.ceil(s) : Math.round(s / 5) * 5} s`;
  const min = s / 60;
  if (min < 45) return `about ${Math.round(min)} min`;
  if (min < 90) return "about an hour";
  return `about ${Math.round(min / 60)} h`;
}

/** "00:00" of an epoch ms, UTC. */
function utcClock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

/** The sentence for `error` with the true wait when the service or the scheduler said one. */
export function marketSentence(error: MarketError, now: number): string {
  const wait = error.retryAfterMs;
  if (wait === undefined) return MARKET_SENTENCES[error.kind];
  if (error.kind === "busy") {
    const rps = error.ratePerSecond;
    const rate = rps === undefined ? "" : ` — this bot may ask it ${rps === 1 ? "1 time" : `${rps} times`} a second`;
    return `The market service is busy${rate}. Try again in ${aboutWait(wait)}.`;
  }
  if (error.kind === "rate_limited") return `The market service is busy and asked this bot to wait. Try again in ${aboutWait(wait)}.`;
  if (error.kind === "quota" && error.status === 403) {
    return `The market service's daily quota is spent; data comes back at ${utcClock(now + wait)} UTC, in ${aboutWait(wait)}.`;
  }
  if (error.kind === "quota") return `This bot is saving its daily market quota for later; try again in ${aboutWait(wait)}.`;
  return MARKET_SENTENCES[error.kind];
}

/** Failures that are the plan's limits doing their job, not faults worth a warning. */
const EXPECTED: ReadonlySet<MarketErrorKind> = new Set(["busy", "rate_limited", "quota"]);

/** Longest command text written to the log. */
const LOGGED_TEXT_MAX = 200;

/** The reply for `error`, logging anything that is not the user's to fix. */
export function failureReply(error: unknown, opts: { log: Logger; commandText: string; now?: number }): Reply {
  if (isUserError(error)) return errorReply(error.message, "user");
  const command = opts.commandText.slice(0, LOGGED_TEXT_MAX);
  if (isStoreError(error)) return storeFailureReply(error, opts.log, command);
  if (isMarketError(error)) {
    // An unknown id or address is the user's typo, not a failure worth a log line.
    if (error.kind === "not_found") return errorReply(MARKET_SENTENCES.not_found, "user");
    const fields = {
      command, kind: error.kind, endpoint: error.endpoint, status: error.status, code: error.code, serviceMsg: error.msg, path: error.path,
    };
    if (error.kind === "unauthorized") {
      // Every command fails until the operator fixes the key, so the line names which one.
      const key = error.endpoint.startsWith("v1") ? "MARKET_API_V1_KEY" : "MARKET_API_KEY";
      opts.log.error(fields, `command failed: the market service refused ${key}; check it`);
    } else if (EXPECTED.has(error.kind)) {
      opts.log.info({ ...fields, retryAfterMs: error.retryAfterMs }, "command answered without data: market service busy or quota spent");
    } else {
      opts.log.warn(fields, "command failed: market service");
    }
    return errorReply(marketSentence(error, opts.now ?? Date.now()), "internal");
  }
  const e = error instanceof Error ? error : new Error(String(error));
  opts.log.error({ command, err: { name: e.name, message: e.message, stack: e.stack } }, "command failed: bug");
  return errorReply(SORRY, "internal");
}
