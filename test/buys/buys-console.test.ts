/**
 * The buy feed in the console chat: the real core and console adapter on the sandbox market, and
 * the feed service printing posts into the same terminal as they come. The feed here is built
 * as for a live service, so its posts carry explorer links; demo mode leaves them out
 * (test/buys/extras.test.ts).
 */
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { consoleAlertSink } from "../../src/adapters/console/alert-sink.js";
import { runConsole } from "../../src/adapters/console/run.js";
import type { BuyFeedService } from "../../src/buys/service.js";
import { lines } from "../lines.js";
import { S0, startBuyWorld, T0, type BuyWorld } from "./buy-world.js";

let world: { w: BuyWorld; feed: BuyFeedService } | undefined;
afterEach(async () => {
  if (!world) return;
  await world.feed.stop();
  await world.w.close();
  world = undefined;
});

describe("the buy feed in the console", () => {
  it("starts a feed and prints its buys over the minimum and a sell in the chat as they come, links written out", async () => {
    const w = await startBuyWorld();
    const input = new PassThrough();
    const output = new PassThrough();
    const printed = lines();
    output.on("data", (c: Buffer) => c.toString().split("\n").forEach((l) => printed.push(l)));
    const has = (text: string) => printed.until((all) => all.some((l) => l.includes(text)));
    const session = runConsole({ core: w.core, input, output, now: w.clock.now });
    const feed = w.service("console", consoleAlertSink({ output, now: w.clock.now }));
    world = { w, feed };

    input.write("/buys pepe min 100 sells on\n");
    await has("Posting the buys of PEPE (eth) here from now on.");
    await w.place(w.idOf("PEPE"), [
      { time: S0 + 5, side: "buy", amountUsd: 80 },
      { time: S0 + 6, side: "buy", amountUsd: 150 },
      { time: S0 + 7, side: "sell", amountUsd: 2_500 },
    ]);
    w.clock.set(T0 + 20_000);
    await feed.turn();
    await has("PEPE sell");
    const text = printed.all.join("\n");
    expect(text.match(/PEPE buy/g)).toHaveLength(1);
    expect(text).toMatch(/🟢🟢🟢 PEPE buy/);
    expect(text).toMatch(/Spent\s+\$150/);
    expect(text).toMatch(/Transaction: https:\/\/etherscan\.io\/tx\/0x[0-9a-f]{64}/);
    input.write("/buys\n");
    await has("Buy feeds of this chat: 1 of 5");
    expect(printed.all.join("\n")).toMatch(/PEPE \(eth\) — min \$100 · sells on · whale \$10K · 🟢 per \$50 · no media · checked about every 15 s/);
    // The terminal has no picture to reply to: media is Telegram's and Discord's, and the console says how.
    input.write("/buys pepe media\n");
    await has("Reply to a photo, GIF or video with /buys PEPE media to show it on whale posts (on Discord, attach it in the media option).");
    input.end();
    await session;
  });
});
