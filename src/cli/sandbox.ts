/**
 * `chainpulse sandbox`: serves the sandbox market until SIGINT or SIGTERM, printing its base
 * URL and demo keys. Bad flags get one line on stderr and exit code 2.
 */
import { parseArgs } from "node:util";
import { DEMO_V1_KEY, DEMO_V2_KEY, PLANS, parseFaults, startSandbox, type PlanName, type SandboxOptions } from "../sandbox/index.js";

/** Where the command writes and what stops it; defaults are the process's own. */
export interface SandboxCommandIo {
  out(line: string): void;
  err(line: string): void;
  /** Resolves when the sandbox should stop; default: the first SIGINT or SIGTERM. */
  stopped?: Promise<unknown>;
}


/** The lines `chainpulse sandbox --help` prints below the usage. */
export const SANDBOX_HELP: readonly string[] = [
  "Options:",
  "  --host H            interface to listen on (default 127.0.0.1)",
  "  --port N            port, 0 to 65535 (default 0: a free port)",
  "  --key K             the v2 key (X-API-KEY), printable ASCII without spaces; default a fixed demo key",
  "  --v1-key K          the v1 key (Svc-Auth), as --key and different from it; default a fixed demo key",
  "  --seed S            seed of the market and of fault decisions, 0 to 4294967295 (default 1)",
  "  --time T            pin the clock: epoch seconds (ms above 1e12) or ISO 8601, 1970 to 2100 (default the real clock)",
  "  --faults SPEC       faults from the start, such as latency:300@0.1,http5xx:503@tokenDetail",
  "  --quirks            reproduce the real service's type deviations",
  "  --rate-limit PLAN   free (1/s), normal (5/s), pro (20/s) or requests a second, per key",
  "  --daily-units N     compute units per key per UTC day; past them 403 \"The limit of this API has been reached today\"",
  "",
  "It prints its URL, its keys and the variables that point the bot at it, then serves until",
  "SIGINT or SIGTERM (exit 0). A bad flag prints one line on stderr and exits 2.",
];

class UsageError extends Error {}

const OPTIONS = {
  host: { type: "string" },
  port: { type: "string" },
  key: { type: "string" },
  "v1-key": { type: "string" },
  seed: { type: "string" },
  time: { type: "string" },
  faults: { type: "string" },
  quirks: { type: "boolean" },
  "rate-limit": { type: "string" },
  "daily-units": { type: "string" },
} as const;

type FlagValues = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]["type"] extends "boolean" ? boolean : string };

function intFlag(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return Number(raw);
}

/**
 * Latest `--time`: the market holds every launch (four a day) up to its clock, so a clock
 * centuries ahead would build millions of them and run out of memory; 2100 takes two seconds.
 */
const LATEST_TIME = "2100-01-01T00:00:00Z";

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `--time`: ISO 8601, or epoch seconds (milliseconds when above 1e12), from 1970 to 2100. Returns epoch ms. */
function timeFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  // Only ISO 8601 reaches Date.parse, whose fallback reads almost anything ("-5" is May 2001).
  const ms = /^\d+$/.test(raw) ? (Number(raw) > 1e12 ? Number(raw) : Number(raw) * 1000) : ISO_8601.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw new UsageError(`--time must be epoch seconds or an ISO 8601 time such as 2026-11-22T12:00:00Z, got "${raw}"`);
  if (ms < 0 || ms > Date.parse(LATEST_TIME)) throw new UsageError(`--time must be from 1970-01-01T00:00:00Z to ${LATEST_TIME}, got "${raw}"`);
  return ms;
}

/** A key the bot can send: MARKET_API_KEY and MARKET_API_V1_KEY take printable ASCII without spaces, and an empty one means demo mode. */
function keyFlag(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  // Not echoed: a key is a secret wherever it is typed.
  if (!/^[\x21-\x7E]+$/.test(raw)) throw new UsageError(`--${name} must be printable ASCII characters without spaces, as the bot's MARKET_API_KEY`);
  return raw;
}

function rateFlag(raw: string | undefined): SandboxOptions["rateLimit"] {
  if (raw === undefined) return undefined;
  if (Object.hasOwn(PLANS, raw)) return raw as PlanName;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100_000) {
    throw new UsageError(`--rate-limit must be free, normal, pro or requests a second from 1 to 100000, got "${raw}"`);
  }
  return { rps: Number(raw) };
}

/**
 * The flags' values. Node's strict mode would refuse `--seed -1` as "ambiguous" and word each
 * refusal its own way: the tokens are checked here instead, so every refusal reads alike and
 * a negative number reaches the range check that names the valid values.
 */
function flagValues(argv: string[]): FlagValues {
  const { tokens } = parseArgs({ args: argv, strict: false, allowPositionals: true, tokens: true, options: OPTIONS });
  const values: Record<string, string | boolean> = {};
  for (const t of tokens) {
    if (t.kind === "positional") throw new UsageError(`unexpected argument "${t.value}"`);
    if (t.kind !== "option") continue;
    if (!Object.hasOwn(OPTIONS, t.name)) throw new UsageError(`unknown option "${t.rawName}"`);
    if (OPTIONS[t.name as keyof typeof OPTIONS].type === "boolean") {
      if (t.value !== undefined) throw new UsageError(`${t.rawName} takes no value`);
      values[t.name] = true;
    } else {
      if (t.value === undefined) throw new UsageError(`${t.rawName} needs a value`);
      values[t.name] = t.value;
    }
  }
  return values as FlagValues;
}

function optionsFrom(argv: string[]): SandboxOptions {
  const v = flagValues(argv);
  let faults;
  try {
    faults = v.faults === undefined ? undefined : parseFaults(v.faults);
  } catch (err) {
    throw new UsageError(`--faults: ${err instanceof Error ? err.message : String(err)}`);
  }
  const v2Key = keyFlag("key", v.key);
  const v1Key = keyFlag("v1-key", v["v1-key"]);
  // The defaults count: a v1 key equal to the demo v2 key would let each version accept the other's.
  if ((v2Key ?? DEMO_V2_KEY) === (v1Key ?? DEMO_V1_KEY)) throw new UsageError("--key and --v1-key must differ (each defaults to its demo key)");
  return {
    host: v.host,
    port: intFlag("port", v.port, 0, 65_535),
    v2Key,
    v1Key,
    seed: intFlag("seed", v.seed, 0, 4_294_967_295),
    time: timeFlag(v.time),
    faults,
    quirks: v.quirks,
    rateLimit: rateFlag(v["rate-limit"]),
    dailyUnits: intFlag("daily-units", v["daily-units"], 1, 1_000_000_000_000),
  };
}

/**
 * The variables that point the bot at this sandbox: both keys, since each version refuses the
 * other's (v1 falls back to MARKET_API_KEY and would be refused), and a pace within the limit.
 */
export function botSettings(sandbox: { url: string; v2Key: string; v1Key: string }, rateLimit: SandboxOptions["rateLimit"], dailyUnits?: number): string[] {
  const lines = [`MARKET_API_URL=${sandbox.url}`, `MARKET_API_KEY=${sandbox.v2Key}`, `MARKET_API_V1_KEY=${sandbox.v1Key}`];
  const rps = rateLimit === undefined ? undefined : typeof rateLimit === "string" ? PLANS[rateLimit] : rateLimit.rps;
  // The bot's pace tops out at 1000 a second, far above any plan.
  if (rps !== undefined && rps <= 1000) lines.push(`MARKET_API_RPS=${rps}`);
  if (dailyUnits !== undefined) lines.push(`MARKET_API_DAILY_UNITS=${dailyUnits}`);
  return lines;
}

function signalled(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: string): void => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(sig);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}

/** Runs `chainpulse sandbox`; resolves with the exit code (0 after a clean stop, 2 for bad flags). */
export async function sandboxCommand(argv: string[], io?: SandboxCommandIo): Promise<number> {
  const out = io?.out ?? ((line: string) => process.stdout.write(`${line}\n`));
  const err = io?.err ?? ((line: string) => process.stderr.write(`${line}\n`));
  let opts: SandboxOptions;
  try {
    opts = optionsFrom(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`chainpulse sandbox: ${e.message} (see chainpulse sandbox --help)`);
    return 2;
  }
  const stopped = io?.stopped ?? signalled();
  let sandbox;
  try {
    sandbox = await startSandbox(opts);
  } catch (e) {
    err(`chainpulse sandbox: cannot listen on ${opts.host ?? "127.0.0.1"}:${opts.port ?? 0} (${(e as NodeJS.ErrnoException).code ?? "error"})`);
    return 1;
  }
  out(`sandbox: serving synthetic demo market data at ${sandbox.url} (v2 under /v2, v1 under /api/v1)`);
  out(`sandbox: v2 key (X-API-KEY): ${sandbox.v2Key}`);
  out(`sandbox: v1 key (Svc-Auth): ${sandbox.v1Key}`);
  out("sandbox: to point the bot at it, put these lines in its .env or environment:");
  for (const line of botSettings(sandbox, opts.rateLimit, opts.dailyUnits)) out(line);
  await stopped;
  await sandbox.close();
  out("sandbox: stopped");
  return 0;
}
