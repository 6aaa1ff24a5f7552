/**
 * The one place a failed command becomes a reply: a UserError is shown as is, and so is a token
 * the service does not know; anything else becomes one log line and one honest sentence chosen
 * by what went wrong, never a stack trace.
 */
import type { Logger } from "pino";
import { isMarketError, type MarketError, type MarketErrorKind } from "../market/errors.js";
import type { Translator } from "../i18n/index.js";
import { isStoreError } from "../store/errors.js";
import { isUserError } from "./errors.js";
import { errorReply, type Reply } from "./reply.js";
import { storeFailureReply } from "./store-failure.js";

/** The message each kind of market failure shows (locales/*.ftl). */
export const MARKET_KEYS: Readonly<Record<MarketErrorKind, string>> = {
  timeout: "failure-not-answering",
  network: "failure-not-answering",
  server: "failure-server",
  envelope: "failure-envelope",
  malformed: "failure-malformed",
  shape: "failure-shape",
  rate_limited: "failure-rate-limited",
  busy: "failure-busy",
  quota: "failure-quota",
  unauthorized: "failure-unauthorized",
  not_found: "failure-not-found",
  bad_request: "failure-bad-request",
  invalid_params: "failure-sorry",
};

/** A wait as people say it: "about 20 s", "about 3 min", "about an hour", "about 5 h". */
export function aboutWait(ms: number, i18n: Translator): string {
  const s = ms / 1000;
  if (s <= 1) return i18n.t("wait-second");
  if (s < 60) return i18n.t("wait-seconds", { n: s < 10 ? Math.ceil(s) : Math.round(s / 5) * 5 });
  const min = s / 60;
  if (min < 45) return i18n.t("wait-minutes", { n: Math.round(min) });
  if (min < 90) return i18n.t("wait-hour");
  return i18n.t("wait-hours", { n: Math.round(min / 60) });
}

/** "00:00" of an epoch ms, UTC. */
function utcClock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

/** The sentence for `error` with the true wait when the service or the scheduler said one. */
export function marketSentence(error: MarketError, now: number, i18n: Translator): string {
  const wait = error.retryAfterMs;
  if (wait === undefined) return i18n.t(MARKET_KEYS[error.kind]);
  const about = aboutWait(wait, i18n);
  if (error.kind === "busy") {
    const rps = error.ratePerSecond;
    return rps === undefined ? i18n.t("failure-busy-wait", { wait: about }) : i18n.t("failure-busy-rate-wait", { rps, wait: about });
  }
  if (error.kind === "rate_limited") return i18n.t("failure-rate-limited-wait", { wait: about });
  if (error.kind === "quota" && error.status === 403) return i18n.t("failure-quota-spent-wait", { clock: utcClock(now + wait), wait: about });
  if (error.kind === "quota") return i18n.t("failure-quota-saving-wait", { wait: about });
  return i18n.t(MARKET_KEYS[error.kind]);
}

/** Failures that are the plan's limits doing their job, not faults worth a warning. */
const EXPECTED: ReadonlySet<MarketErrorKind> = new Set(["busy", "rate_limited", "quota"]);

/** Longest command text written to the log. */
const LOGGED_TEXT_MAX = 200;

/** The reply for `error`, logging anything that is not the user's to fix. */
export function failureReply(
  error: unknown,
  opts: {
    log: Logger;
    commandText: string;
    now?: number;
    /** The chat's language. */
    i18n: Translator;
    /** The language of answers only the caller sees (user errors on Discord). Default `i18n`. */
    callerI18n?: Translator;
  },
): Reply {
  const i18n = opts.i18n;
  const caller = opts.callerI18n ?? i18n;
  if (isUserError(error)) return errorReply(caller.t(error.key, error.args), "user");
  const command = opts.commandText.slice(0, LOGGED_TEXT_MAX);
  if (isStoreError(error)) return storeFailureReply(error, opts.log, command, i18n);
  if (isMarketError(error)) {
    // An unknown id or address is the user's typo, not a failure worth a log line.
    if (error.kind === "not_found") return errorReply(caller.t(MARKET_KEYS.not_found), "user");
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
    return errorReply(marketSentence(error, opts.now ?? Date.now(), i18n), "internal");
  }
  const e = error instanceof Error ? error : new Error(String(error));
  opts.log.error({ command, err: { name: e.name, message: e.message, stack: e.stack } }, "command failed: bug");
  return errorReply(i18n.t("failure-sorry"), "internal");
}
