import { describe, expect, it } from "vitest";
import { createCachedMarket } from "../../src/cache/cached-market.js";
import type { Reply } from "../../src/core/reply.js";
import { createPacedQueue } from "../../src/digest/paced-queue.js";
import { createLaunchWatcher } from "../../src/launches/watcher.js";
import { shortAddress } from "../../src/core/format/index.js";
import { createLogger, REDACTED } from "../../src/log.js";
import { joinId } from "../../src/market/ids.js";
import { startClockedWorld } from "../core/clocked-world.js";
import { recordingAdapter } from "../fakes/recording-adapter.js";
import { FIRST_PASS, startLaunchWorld, SUBSCRIBED } from "./launch-world.js";

const T0 = Date.UTC(2026, 10, 22, 10, 0);
const DAY = 86_400_000;

const field = (r: Reply, label: string): string | undefined => r.blocks.flatMap((b) => (b.kind === "fields" ? b.fields : [])).find((f) => f.label === label)?.value;

describe("launch watcher on the sandbox", () => {
  it("posts each new token once, verdict first, honeypots held back, and folds past the hourly cap", async () => {
    const world = await startClockedWorld({ start: T0, tmpPrefix: "cp-launch-" });
    try {
      const { adapter, sent } = recordingAdapter();
      const holder = "test-host:1:a";
      const leases = world.store.subscriptions;
      expect(await leases.acquireLease("digest-poster", holder, 10 * DAY, world.clock.now())).toBe(true);
      const chain = "eth";
      await world.store.launches.upsertLaunchSubscription({ platform: "telegram", chatId: "42", chain, minLiquidity: 0 }, T0 - 7 * DAY);
      const watcher = createLaunchWatcher({
        launches: world.store.launches, chats: world.store, market: createCachedMarket(world.client, { now: world.clock.now }), lists: world.client.background(),
        adapters: { telegram: adapter }, queues: { telegram: createPacedQueue({ maxInFlight: 1, now: world.clock.now, sleep: world.clock.sleep }) }, holder, lease: { leading: () => true },
        perHour: 3, core: world.core, logger: world.log, now: world.clock.now,
      });

      const first = await watcher.tick();
      await first.done;
      expect(first.queued).toBeGreaterThan(3);
      expect(sent).toHaveLength(3);
      for (const { reply } of sent) {
        expect(reply.title).toMatch(/^(🔴|🟡|🟢|⚪ Not checked)/);
        expect(reply.title).not.toMatch(/honeypot/i);
        expect(reply.blocks[0]).toMatchObject({ kind: "text", text: expect.stringContaining(`New on ${chain}`) });
        // As of when price and liquidity were read (this pass), not when the token launched days before.
        expect(reply.footer?.asOf).toBe(T0);
      }
      // The oldest launches first, in the order they launched: not by address.
      const owed = world.sandbox.market.tokens
        .filter((t) => t.chain === chain && t.risk !== "honeypot" && t.launchAt * 1000 >= T0 - 7 * DAY && t.launchAt * 1000 <= T0)
        .sort((a, b) => a.launchAt - b.launchAt);
      // Whole, for a member to copy, with the token's buttons.
      expect(sent.map(({ reply }) => field(reply, "Address"))).toEqual(owed.slice(0, 3).map((t) => t.address));
      expect(sent[0]?.reply.actions.flat().map((a) => (a.kind === "command" ? `/${a.command} ${a.args.join(" ")}` : a.kind))).toEqual(["token", "risk", "chart"].map((c) => `/${c} ${owed[0]?.id}`));

      const again = await watcher.tick();
      await again.done;
      expect(again.queued).toBe(0);
      expect(sent).toHaveLength(3);

      world.clock.set(T0 + 3_600_000);
      const next = await watcher.tick();
      await next.done;
      const summary = sent.slice(3).find((s) => s.reply.title.includes("more new tokens"))?.reply;
      // Sent in the hour after: it names the hour the tokens were found in.
      expect(summary?.title).toBe(`🆕 ${first.queued - 3} more new tokens found on ${chain} between 10:00 and 11:00 UTC`);
      expect(summary?.footer?.asOf).toBe(T0);
      // Each row leads with its contract's verdict, or says it was not checked.
      const table = summary?.blocks.find((b) => b.kind === "table");
      expect(table).toMatchObject({ columns: ["Contract", "Token", "Address"] });
      const rows = table?.kind === "table" ? table.rows : [];
      expect(rows.map((r) => r[2])).toEqual(owed.slice(3, first.queued).map((t) => shortAddress(t.address)));
      for (const [mark] of rows) expect(mark).toMatch(/^(🔴 high risk|🟡 caution|🟢 no red flags|⚪ not checked)$/u);
      expect(rows.map(([mark]) => mark)).toContain("⚪ not checked");
      expect(await world.store.launches.launchPostCounts()).toMatchObject({ delivered: sent.length, summarised: first.queued - 3 });
      // The tokens stay in the lists for days: once every chat has had them, and a honeypot once
      // held back, no pass reads their reports again, though the report cache has long expired.
      const reports = () => world.sandbox.stats().byEndpoint["riskReport"] ?? 0;
      const before = reports();
      expect(before).toBeGreaterThan(0);
      world.clock.set(T0 + 2 * 3_600_000);
      await (await watcher.tick()).done;
      expect(reports()).toBe(before);
      await watcher.stop();
    } finally {
      await world.close();
    }
  });

  it("posts no token whose report could not be read, honeypot or not, and posts them with their verdicts once it can", async () => {
    const world = await startLaunchWorld("cp-launch-unread-");
    try {
      const { adapter, sent } = recordingAdapter();
      await world.store.launches.upsertLaunchSubscription({ platform: "telegram", chatId: "1", chain: "eth", minLiquidity: 0 }, SUBSCRIBED);
      const watcher = world.launchWatcher({ sinks: { telegram: adapter }, perHour: 20 });
      world.sandbox.setFaults([{ kind: "http5xx", status: 503, endpoints: ["riskReport"] }]);
      expect(await world.pass(watcher, FIRST_PASS)).toBe(0);
      expect(sent).toEqual([]);
      world.sandbox.setFaults([]);
      expect(await world.pass(watcher, FIRST_PASS + 60_000)).toBeGreaterThan(0);
      await watcher.stop();
      const address = (r: Reply): string | undefined => r.blocks.flatMap((b) => (b.kind === "fields" ? b.fields : [])).find((f) => f.label === "Address")?.value;
      const posted = sent.map((x) => address(x.reply));
      for (const t of world.launched("eth", "honeypot")) expect(posted).not.toContain(t.address);
      const [sellable] = world.launched("eth", "highTax");
      const post = sent.find((x) => address(x.reply) === sellable?.address);
      expect(post?.reply.title).toMatch(/^(🔴|🟡)/u);
    } finally {
      await world.close();
    }
  });

  it("holds back the sandbox's honeypots on eth and bsc and posts the eth launches that can be sold", async () => {
    const world = await startLaunchWorld("cp-launch-hp-");
    try {
      const { adapter, sent } = recordingAdapter();
      for (const [chatId, chain] of [["1", "eth"], ["2", "bsc"]] as const) {
        await world.store.launches.upsertLaunchSubscription({ platform: "telegram", chatId, chain, minLiquidity: 0 }, SUBSCRIBED);
      }
      const lines: string[] = [];
      const logger = createLogger({ level: "info", secrets: [], pretty: false, destination: { write: (line: string) => void lines.push(line) } });
      const watcher = world.launchWatcher({ sinks: { telegram: adapter }, perHour: 20, logger });
      await world.pass(watcher, FIRST_PASS);
      await watcher.stop();

      // The log names each token held back (`token` is a credential's name, censored in every line).
      const held = lines.map((l) => JSON.parse(l) as { msg: string; tokenId?: string }).filter((l) => l.msg === "a new token whose sale is blocked is not posted");
      expect(held.map((l) => l.tokenId)).toEqual(expect.arrayContaining(world.launched("eth", "honeypot").map((t) => joinId(t.address, t.chain))));
      expect(lines.join("")).not.toContain(REDACTED);

      const address = (r: Reply): string | undefined => r.blocks.flatMap((b) => (b.kind === "fields" ? b.fields : [])).find((f) => f.label === "Address")?.value;
      const posted = (chatId: string) => sent.filter((s) => s.chatId === chatId).map((s) => address(s.reply));
      for (const chain of ["eth", "bsc"]) {
        const honeypots = world.launched(chain, "honeypot").map((t) => shortAddress(t.address));
        expect(honeypots.length).toBeGreaterThan(0);
        for (const a of honeypots) expect(posted(chain === "eth" ? "1" : "2")).not.toContain(a);
      }
      // Sold at a 25 % tax, minted at will, held by its creator: warned about, but posted.
      const sellable = ["highTax", "mintable", "concentrated"] as const;
      for (const risk of sellable) {
        const [token] = world.launched("eth", risk);
        expect(posted("1")).toContain(token?.address);
      }
      expect(posted("2")).toEqual([]);
    } finally {
      await world.close();
    }
  });
});
