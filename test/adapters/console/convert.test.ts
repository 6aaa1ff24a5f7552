/**
 * /convert in the console in demo mode: the bot's own wiring (config → the in-process sandbox →
 * cache → core) and the console adapter, one conversion and one bad input.
 */
import { PassThrough, Readable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConsole } from "../../../src/adapters/console/run.js";
import { buildCore, type BuiltCore } from "../../../src/app/build-core.js";
import { loadConfig } from "../../../src/config.js";
import { formatExactUsd, formatPrice } from "../../../src/core/format/index.js";

let built: BuiltCore;

beforeAll(async () => {
  built = await buildCore(loadConfig({ DATABASE_PATH: ":memory:" }), { log: pino({ level: "silent" }) });
});
afterAll(async () => {
  await built.close();
});

/** Everything the console prints for `lines`, typed through a pipe. */
async function say(lines: string): Promise<string> {
  const output = new PassThrough();
  let out = "";
  output.on("data", (c: Buffer) => (out += c.toString()));
  await runConsole({ core: built.core, input: Readable.from([lines]), output });
  return out;
}

describe("/convert in the console on demo data", () => {
  it("converts a token amount to dollars at the price the service gave", async () => {
    const out = await say("/convert 1.5m pepe\n");
    const pepe = built.sandbox!.market.bySymbol("pepe")[0]!;
    // The detail the command read, from the cache (no second call): the same second's figures.
    const calls = built.sandbox!.stats().total;
    const price = Number((await built.market.tokenDetail(pepe.id)).data.token.current_price_usd);
    expect(built.sandbox!.stats().total).toBe(calls);
    // PEPE typed by symbol: its chain is named, and the others called so are listed.
    expect(out).toContain(`1.5M PEPE (${pepe.chain}) ≈ ${formatExactUsd(1.5e6 * price)}`);
    expect(out).toMatch(/\d+ tokens are called PEPE; this is the original contract, on eth\./);
    const unit = out.split("\n").find((l) => l.startsWith("PEPE price "));
    expect(unit?.replace(/^PEPE price\s+/, "")).toBe(formatPrice(price));
    expect(out).toContain("Mid price, not a quote: a trade gets less after fees and slippage.");
    expect(out).toContain("demo data (sandbox)");
  });

  it("answers a zero amount with one sentence", async () => {
    expect((await say("/convert 0 pepe\n")).trim()).toBe("⚠ An amount to convert must be more than zero.");
  });
});
