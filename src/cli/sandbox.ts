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

const USAGE =
  "usage: chainpulse sandbox [--host 127.0.0.1] [--port N] [--key K] [--v1-key K] [--seed S] [--time T] [--faults SPEC] [--quirks] [--rate-limit free|normal|pro|N]";

class UsageError extends Error {}

function intFlag(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return Number(raw);
}

/** `--time`: ISO 8601, or epoch seconds (milliseconds when above 1e12). Returns epoch ms. */
function timeFlag(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw) > 1e12 ? Number(raw) : Number(raw) * 1000;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw new UsageError("--time must be epoch seconds or an ISO 8601 time such as 2026-11-22T12:00:00Z");
  return ms;
}

function rateFlag(raw: string | undefined): SandboxOptions["rateLimit"] {
  if (raw === undefined) return undefined;
  if (raw in PLANS) return raw as PlanName;
  const rps = intFlag("rate-limit", raw, 1, 100_000);
  if (rps === undefined) throw new UsageError("--rate-limit must be free, normal, pro or requests per second");
  return { rps };
}

function optionsFrom(argv: string[]): SandboxOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        key: { type: "string" },
        "v1-key": { type: "string" },
        seed: { type: "string" },
        time: { type: "string" },
        faults: { type: "string" },
        quirks: { type: "boolean" },
        "rate-limit": { type: "string" },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message.split("\n")[0] ?? "bad flags" : "bad flags");
  }
  const v = parsed.values;
  let faults;
  try {
    faults = v.faults === undefined ? undefined : parseFaults(v.faults);
  } catch (err) {
    throw new UsageError(`--faults: ${err instanceof Error ? err.message : String(err)}`);
  }
  // The defaults count: a v1 key equal to the demo v2 key would let each version accept the other's.
  if ((v.key ?? DEMO_V2_KEY) === (v["v1-key"] ?? DEMO_V1_KEY)) throw new UsageError("--key and --v1-key must differ (each defaults to its demo key)");
  return {
    host: v.host,
    port: intFlag("port", v.port, 0, 65_535),
    v2Key: v.key,
    v1Key: v["v1-key"],
    seed: intFlag("seed", v.seed, 0, 4_294_967_295),
    time: timeFlag(v.time),
    faults,
    quirks: v.quirks,
    rateLimit: rateFlag(v["rate-limit"]),
  };
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
    err(`chainpulse sandbox: ${e.message} (${USAGE.slice("usage: ".length)})`);
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
  await stopped;
  await sandbox.close();
  out("sandbox: stopped");
  return 0;
}
