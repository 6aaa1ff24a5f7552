/**
 * The console chat with alerts: the real core and console adapter on the sandbox market, and the
 * alert service printing fired alerts into the same terminal as they come.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { consoleAlertSink } from "../../src/adapters/console/alert-sink.js";
import { runConsole } from "../../src/adapters/console/run.js";
import { startAlertWorld, T0, typed, type AlertWorld } from "./alert-world.js";
import { WAIT_BOUND_MS } from "../fakes/wait-bound.js";
import { whenChanged } from "../process/when-changed.js";

let world: AlertWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The console chat on `w`'s core: what it printed so far, and a wait until it prints a match. */
function consoleOn(w: AlertWorld) {
  const input = new PassThrough();
  const output = new PassThrough();
  let out = "";
  output.on("data", (c: Buffer) => (out += c.toString()));
  const printing = (listener: () => void) => {
    output.on("data", listener);
    return () => void output.off("data", listener);
  };
  const until = (wanted: string | RegExp) =>
    whenChanged(() => (typeof wanted === "string" ? out.includes(wanted) : wanted.test(out)), [printing], () => `the console to print ${String(wanted)}; it printed:\n${out}`, WAIT_BOUND_MS);
  const session = runConsole({ core: w.core, input, output, now: w.clock.now });
  return { input, output, until, session, out: () => out };
}

describe("alerts in the console", () => {
  it("prints a fired alert in the chat as it comes, its buttons written as the commands they run", async () => {
    const w = (world = await startAlertWorld());
    const { input, output, until, session, out } = consoleOn(w);
    const alerts = w.service("console", consoleAlertSink({ output, now: w.clock.now }));
    const id = w.idOf("WIF");
    const t1 = w.momentWhen(id, T0, 1.03);
    const level = typed((w.priceAt(id, T0) + w.priceAt(id, t1)) / 2);

    input.write(`/alert wif above ${level}\n`);
    await until("Alert #1 set: WIF above");
    input.write("/watch pepe wif\n");
    await until("Watching PEPE, WIF.");
    await alerts.tick();
    expect(out()).not.toContain("Alert #1: ");

    w.clock.set(t1);
    await alerts.tick();
    await alerts.delivery.settled();
    await until("Alert #1: WIF is above");
    expect(out()).toMatch(/Card: \/token \S+-solana {2}· {2}Chart: \/chart \S+-solana {2}· {2}Re-arm: \/rearm 1 {2}· {2}Delete: \/unalert 1/);
    input.write("/alerts\n");
    await until("Price alerts in this chat (1 of 20)");
    expect(out()).toMatch(/fired 24 Nov \d\d:\d\d UTC/);
    input.end();
    await session;
    await alerts.stop();
    expect(out().match(/Alert #1: WIF is above/g)).toHaveLength(1);
  });

  it("writes an alert's far levels and distances with 万 and 亿 in a Chinese chat", async () => {
    const w = (world = await startAlertWorld());
    const { input, until, session, out } = consoleOn(w);
    input.write("/settings language zh\n");
    await until(/已保存/);
    input.write("/alert wif above 1.5k\n");
    await until(/\$1,500/);
    input.write("/alert wif below 2M\n");
    await until(/\$200万/);
    input.write("/alerts\n");
    await until(/万%/);
    input.end();
    await session;
    expect(out()).not.toMatch(/\d[KMB]%|\$2M/);
  });
});
