/**
 * New launches end to end on Discord: the real core and discord.js adapter on the fake Discord,
 * the sandbox market and the launch watcher, all on one hand-moved clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../../src/adapters/discord/index.js";
import type { PlatformAdapter } from "../../src/adapters/types.js";
import { shortAddress } from "../../src/core/format/index.js";
import type { LaunchWatcher } from "../../src/launches/watcher.js";
import { OptionType, Permission, startFakeDiscord, type FakeDiscord, type RecordedRequest, type Settled } from "../fakes/discord-api.js";
import { FIRST_PASS, HOUR, startLaunchWorld, type LaunchWorld } from "./launch-world.js";

const GUILD = "400000000000000401";
const MANAGER = Permission.viewChannel | Permission.sendMessages | Permission.manageChannels;
const [ETH, SOLANA, LEFT] = ["500000000000000001", "500000000000000002", "500000000000000003"];

let world: (LaunchWorld & { fake: FakeDiscord; adapter: PlatformAdapter; watcher: LaunchWatcher }) | undefined;
afterEach(async () => {
  if (!world) return;
  const w = world;
  world = undefined;
  await w.watcher.stop();
  await w.adapter.stop();
  await w.fake.close();
  await w.close();
  expect(w.fake.violations).toEqual([]);
});

/** Every string the user reads in an answer or a post (content, embed title, description, fields), Markdown escapes undone. */
function texts(message: { content?: string; embeds?: unknown }): string[] {
  const embeds = (message.embeds ?? []) as { title?: string; description?: string; fields?: { name: string; value: string }[] }[];
  const all = [message.content ?? "", ...embeds.flatMap((e) => [e.title ?? "", e.description ?? "", ...(e.fields ?? []).flatMap((f) => [f.name, f.value])])];
  return all.filter((s) => s !== "").map(unescape);
}

/** Text as Discord shows it: Markdown escapes undone. */
function unescape(markdown: string): string {
  return markdown.replace(/\\(.)/g, "$1");
}

const title = (r: RecordedRequest): string => unescape((r.body as { embeds?: { title?: string }[] }).embeds?.[0]?.title ?? "");

function answer(settled: Settled): string {
  if (settled.kind !== "message") throw new Error(`no message: ${settled.kind}`);
  return texts(settled.message).join("\n");
}

describe("new launches through Discord", () => {
  it("posts each launch once per channel as an embed, verdict as its title, honeypots held back, the rest folded", async () => {
    const base = await startLaunchWorld("cp-launch-dc-");
    const fake = await startFakeDiscord();
    const adapter = createDiscordAdapter({ token: fake.token, applicationId: fake.applicationId, apiRoot: fake.apiRoot, core: base.core, logger: base.log, now: base.clock.now });
    await adapter.start();
    const watcher = base.launchWatcher({ sinks: { discord: adapter }, perHour: 3 });
    const w = (world = { ...base, fake, adapter, watcher });
    const slash = (name: string, channelId: string, options: Record<string, string>) =>
      fake.chatInput({ name, options: Object.entries(options).map(([n, value]) => ({ name: n, type: OptionType.string, value })), guildId: GUILD, channelId, permissions: MANAGER }).settled();

    expect(answer(await slash("subscribe", ETH, { chain: "launches", schedule: "eth" }))).toContain("New eth tokens will be posted here");
    expect(answer(await slash("subscribe", SOLANA, { chain: "launches", schedule: "solana" }))).toContain("New solana tokens will be posted here");
    expect(answer(await slash("subscriptions", SOLANA, {}))).toMatch(/New launches posted here[\s\S]*solana/);
    expect(answer(await slash("subscribe", LEFT, { chain: "launches", schedule: "solana" }))).toContain("New solana tokens will be posted here");
    expect(answer(await slash("unsubscribe", LEFT, { chain: "launches", more: "solana" }))).toContain("New solana tokens are no longer posted here.");

    await w.pass(watcher, FIRST_PASS);
    const posts = (channel: string): RecordedRequest[] => fake.requests.filter((r) => r.method === "POST" && r.path === `/channels/${channel}/messages`);
    const body = (r: RecordedRequest) => r.body as { content?: string; embeds?: unknown[]; allowed_mentions?: { parse?: string[] } };
    const honeypots = w.launched("eth", "honeypot");
    expect(honeypots.length).toBeGreaterThan(0);
    expect(posts(ETH)).toHaveLength(3);
    for (const r of posts(ETH)) {
      expect(title(r)).toMatch(/^(🔴|🟡|🟢|⚪) /u);
      expect(texts(body(r)).join("\n")).toContain("🆕 New on eth:");
      expect(body(r).allowed_mentions?.parse ?? []).toEqual([]);
      for (const hp of honeypots) expect(texts(body(r)).join("\n")).not.toContain(shortAddress(hp.address));
    }
    const solanaTitles = posts(SOLANA).map(title);
    expect(solanaTitles).toHaveLength(3);
    expect(solanaTitles).toContain("⚪ Not checked: no contract report yet — this is not a sign it is safe");
    expect(posts(LEFT)).toEqual([]);

    const before = fake.requests.length;
    expect(await w.pass(watcher, FIRST_PASS + 2 * 60_000)).toBe(0);
    expect(fake.requests.slice(before).filter((r) => r.method === "POST")).toEqual([]);

    await w.pass(watcher, FIRST_PASS + HOUR);
    expect(posts(ETH).map(title).filter((t) => t.includes("more new token"))).toEqual(["🆕 1 more new token found on eth between 02:00 and 03:00 UTC"]);
    const ethTexts = posts(ETH).flatMap((r) => texts(body(r))).join("\n");
    for (const hp of honeypots) expect(ethTexts).not.toContain(shortAddress(hp.address));
  }, 120_000);
});
