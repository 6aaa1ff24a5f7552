/**
 * New launches in the console of demo mode: the real core and console chat on the sandbox, the
 * launch watcher keeping its own lease (no poster runs there) and printing posts into the same
 * terminal, as `chainpulse start` without a bot token does.
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { consoleAlertSink } from "../../src/adapters/console/alert-sink.js";
import { runConsole } from "../../src/adapters/console/run.js";
import { shortAddress } from "../../src/core/format/index.js";
import { lines } from "../lines.js";
import { FIRST_PASS, HOUR, startLaunchWorld, type LaunchWorld } from "./launch-world.js";

let world: LaunchWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const count = (text: string, part: string): number => text.split(part).length - 1;

describe("new launches in the console", () => {
  it("prints each launch once, verdict first, honeypots held back, 'not checked' labelled, the rest folded", async () => {
    const w = (world = await startLaunchWorld("cp-launch-console-"));
    const input = new PassThrough();
    const output = new PassThrough();
    const out = lines();
    output.on("data", (c: Buffer) => out.push(c.toString()));
    const printed = () => out.all.join("");
    const session = runConsole({ core: w.core, input, output, now: w.clock.now });
    const watcher = w.launchWatcher({ sinks: { console: consoleAlertSink({ output, now: w.clock.now }) }, perHour: 6 });
    const say = async (text: string, answer: string) => {
      input.write(`${text}\n`);
      await out.until(() => printed().includes(answer));
    };

    await say("/subscribe launches eth", "New eth tokens will be posted here");
    await say("/subscribe launches solana", "New solana tokens will be posted here");
    await say("/subscriptions", "New launches posted here");
    await w.pass(watcher, FIRST_PASS);
    const first = printed();
    // Eight launches owed (four on each chain, the honeypot not among them), six an hour.
    expect(count(first, "🆕 New on eth:") + count(first, "🆕 New on solana:")).toBe(6);
    expect(first).toMatch(/(🔴|🟡|🟢|⚪) [^\n]+\n+🆕 New on eth:/u);
    expect(first).toContain("⚪ Not checked: no contract report yet — this is not a sign it is safe\n");
    const honeypots = w.launched("eth", "honeypot");
    expect(honeypots.length).toBeGreaterThan(0);
    for (const hp of honeypots) expect(first).not.toContain(shortAddress(hp.address));

    expect(await w.pass(watcher, FIRST_PASS + 2 * 60_000)).toBe(0);
    expect(printed()).toBe(first);

    await w.pass(watcher, FIRST_PASS + HOUR);
    const folded = [...printed().slice(first.length).matchAll(/🆕 (\d+) more new tokens? found on (eth|solana) between 02:00 and 03:00 UTC/gu)].map((m) => Number(m[1]));
    expect(folded.reduce((a, b) => a + b, 0)).toBe(2);
    for (const hp of honeypots) expect(printed()).not.toContain(shortAddress(hp.address));

    await say("/unsubscribe launches eth", "New eth tokens are no longer posted here.");
    input.end();
    await session;
    await watcher.stop();
  }, 120_000);

  it("prints a token launched while the console runs at the first pass after its launch", async () => {
    const w = (world = await startLaunchWorld("cp-launch-console-live-"));
    // A launch after the first pass that can be sold (a honeypot is held back).
    w.sandbox.market.reach(FIRST_PASS / 1000 + 2 * 86_400);
    const token = w.sandbox.market.tokens
      .filter((t) => t.launchAt * 1000 > FIRST_PASS && t.risk !== "honeypot")
      .sort((a, b) => a.launchAt - b.launchAt)[0];
    if (token === undefined) throw new Error("the sandbox launches nothing after the first pass");
    const launch = token.launchAt * 1000;
    const input = new PassThrough();
    const output = new PassThrough();
    const out = lines();
    output.on("data", (c: Buffer) => out.push(c.toString()));
    const printed = () => out.all.join("");
    w.clock.set(launch - 90_000);
    const session = runConsole({ core: w.core, input, output, now: w.clock.now });
    const watcher = w.launchWatcher({ sinks: { console: consoleAlertSink({ output, now: w.clock.now }) }, perHour: 6 });
    input.write(`/subscribe launches ${token.chain}\n`);
    await out.until(() => printed().includes(`New ${token.chain} tokens will be posted here`));

    expect(await w.pass(watcher, launch - 30_000)).toBe(0);
    // A minute later, the lists the pass before read are still in the cache: the pass reads them again.
    expect(await w.pass(watcher, launch + 30_000)).toBe(1);
    expect(printed()).toContain(`🆕 New on ${token.chain}: ${token.symbol}`);
    input.end();
    await session;
    await watcher.stop();
  }, 60_000);
});
