/**
 * Alerts and watchlists end to end on Discord: the real core and discord.js adapter on the fake
 * Discord, the sandbox market, and the alert service with a paced Discord queue, on one clock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createDiscordAdapter } from "../../src/adapters/discord/index.js";
import type { PlatformAdapter } from "../../src/adapters/types.js";
import type { AlertService } from "../../src/alerts/service.js";
import { OptionType, Permission, startFakeDiscord, type FakeDiscord, type RecordedRequest, type Settled } from "../fakes/discord-api.js";
import { startAlertWorld, T0, typed, type AlertWorld } from "./alert-world.js";

const GUILD = "400000000000000701";
const MEMBER = Permission.viewChannel | Permission.sendMessages;
const MANAGER = MEMBER | Permission.manageChannels;

interface World extends AlertWorld {
  fake: FakeDiscord;
  adapter: PlatformAdapter;
  alerts: AlertService;
}

let world: World | undefined;
afterEach(async () => {
  if (!world) return;
  const w = world;
  world = undefined;
  await w.alerts.stop();
  await w.adapter.stop();
  await w.fake.close();
  await w.close();
  expect(w.fake.violations).toEqual([]);
});

async function start(limits = { maxPerChat: 20, watchlistMax: 50 }): Promise<World> {
  const base = await startAlertWorld({ limits });
  const fake = await startFakeDiscord();
  const adapter = createDiscordAdapter({
    token: fake.token,
    applicationId: fake.applicationId,
    apiRoot: fake.apiRoot,
    core: base.core,
    logger: base.log,
    now: base.clock.now,
  });
  await adapter.start();
  const alerts = base.service("discord", adapter);
  world = { ...base, fake, adapter, alerts };
  return world;
}

function slash(w: World, name: string, channelId: string, permissions: bigint, options: Record<string, string> = {}): Promise<Settled> {
  const opts = Object.entries(options).map(([n, value]) => ({ name: n, type: OptionType.string, value }));
  return w.fake.chatInput({ name, options: opts, guildId: GUILD, channelId, permissions }).settled();
}

function unescape(markdown: string): string {
  return markdown.replace(/\\(.)/g, "$1");
}

function texts(answer: Settled): string[] {
  if (answer.kind !== "message") throw new Error(`no message: ${answer.kind} (${answer.request.status})`);
  const embeds = answer.message.embeds as { title?: string; description?: string; fields?: { name: string; value: string }[] }[];
  const all = [answer.message.content, ...embeds.flatMap((e) => [e.title ?? "", e.description ?? "", ...(e.fields ?? []).flatMap((f) => [f.name, f.value])])];
  return all.filter((s) => s !== "").map(unescape);
}

function channelPosts(w: World, channelId: string): RecordedRequest[] {
  return w.fake.requests.filter((r) => r.method === "POST" && r.path === `/channels/${channelId}/messages`);
}

async function checkAt(w: World, at: number): Promise<void> {
  w.clock.set(at);
  await w.alerts.tick();
  await w.alerts.delivery.settled();
}

describe("price alerts through Discord", () => {
  it("lets a channel manager set alerts, refuses a plain member ephemerally, and lists them for everyone", async () => {
    const w = await start({ maxPerChat: 1, watchlistMax: 50 });
    const channel = "500000000000000701";
    const refused = await slash(w, "alert", channel, MEMBER, { token: "wif", rule: "move", value: "10%" });
    if (refused.kind !== "message") throw new Error(refused.kind);
    expect(refused.ephemeral).toBe(true);
    expect(texts(refused)).toEqual(["Only this chat's admins can manage alerts."]);
    const ok = await slash(w, "alert", channel, MANAGER, { token: "wif", rule: "move", value: "10%" });
    expect(texts(ok)[0]).toBe("Alert #1 set: WIF moves 10% either way.");
    const full = await slash(w, "alert", channel, MANAGER, { token: "pepe", rule: "above", value: "1M" });
    expect(texts(full)).toEqual(["This chat already has 1 alerts, the most it may have is 1; /unalert one first."]);
    const list = await slash(w, "alerts", channel, MEMBER);
    expect(texts(list).join("\n")).toMatch(/Price alerts in this chat \(1 of 1\)/);
    if (list.kind !== "message") throw new Error(list.kind);
    // Its ✖ refuses a member ephemerally, and for a manager deletes the alert and redraws the list in place.
    const cross = (list.message.components as { components: { label?: string; custom_id?: string }[] }[]).flatMap((r) => r.components).find((b) => b.label === "✖ #1")?.custom_id ?? "";
    const denied = await w.fake.button({ customId: cross, message: list.message, guildId: GUILD, channelId: channel, permissions: MEMBER }).settled();
    if (denied.kind !== "message") throw new Error(denied.kind);
    expect(denied.ephemeral).toBe(true);
    expect(texts(denied)).toEqual(["Only this chat's admins can manage alerts."]);
    const pressed = await w.fake.button({ customId: cross, message: list.message, guildId: GUILD, channelId: channel, permissions: MANAGER }).settled();
    if (pressed.kind !== "message") throw new Error(pressed.kind);
    expect(pressed.message.id).toBe(list.message.id);
    expect(texts(pressed)[0]).toBe("This chat has no price alerts.");
    expect(texts(pressed).join("\n")).toContain("Deleted alert #1.");
  });

  it("posts a fired alert to the channel as an embed with its buttons and mentions off, once", async () => {
    const w = await start();
    const channel = "500000000000000702";
    const id = w.idOf("WIF");
    const t1 = w.momentWhen(id, T0, 1.03);
    const level = typed((w.priceAt(id, T0) + w.priceAt(id, t1)) / 2);
    expect(texts(await slash(w, "alert", channel, MANAGER, { token: "wif", rule: "above", value: level }))[0]).toMatch(/^Alert #1 set/);
    await checkAt(w, T0 + 30_000);
    expect(channelPosts(w, channel)).toEqual([]);
    await checkAt(w, t1);
    await checkAt(w, t1 + 30_000);
    const posts = channelPosts(w, channel);
    expect(posts.map((p) => p.status)).toEqual([200]);
    const body = posts[0]!.body as { embeds: { title: string }[]; components: { components: { custom_id?: string; label: string }[] }[]; allowed_mentions: unknown };
    expect(unescape(body.embeds[0]!.title)).toMatch(/^Alert #1: WIF is above \$0\.\d+/);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    const buttons = body.components.flatMap((r) => r.components);
    expect(buttons.map((b) => b.label)).toEqual(["Card", "Chart", "Re-arm", "Delete"]);
    for (const b of buttons) expect(b.custom_id?.length ?? 0).toBeLessThanOrEqual(100);
    expect(await w.store.alerts.firingCounts()).toEqual({ delivered: 1 });
  });

  it("drops the alerts of a channel that is gone, keeps those of one where it may not post", async () => {
    const w = await start();
    const [gone, muted] = ["500000000000000703", "500000000000000704"];
    const id = w.idOf("WIF");
    const t1 = w.momentWhen(id, T0, 1.03);
    const level = typed((w.priceAt(id, T0) + w.priceAt(id, t1)) / 2);
    for (const c of [gone!, muted!]) {
      await slash(w, "alert", c, MANAGER, { token: "wif", rule: "above", value: level });
      await slash(w, "watch", c, MANAGER, { tokens: "pepe" });
    }
    w.fake.failChannel(gone!, "unknown-channel");
    w.fake.failChannel(muted!, "missing-permissions");
    await checkAt(w, t1);
    const chat = (chatId: string) => ({ platform: "discord" as const, chatId });
    expect(await w.store.alerts.listAlerts(chat(gone!))).toEqual([]);
    expect(await w.store.watchlists.listWatched(chat(gone!))).toEqual([]);
    expect(await w.store.alerts.listAlerts(chat(muted!))).toHaveLength(1);
    expect(await w.store.alerts.firingCounts()).toEqual({ forbidden: 1 });
    // Asked once: a dropped channel is never hit again.
    expect(channelPosts(w, gone!)).toHaveLength(1);
  });
});

describe("watchlists through Discord", () => {
  it("adds tokens and shows them with price, 24h change and age within Discord's limits", async () => {
    const w = await start();
    const channel = "500000000000000705";
    expect(texts(await slash(w, "watch", channel, MEMBER, { tokens: "pepe" }))).toEqual(["Only this chat's admins can change the watchlist."]);
    expect(texts(await slash(w, "watch", channel, MANAGER, { tokens: "pepe wif bonk trump" }))[0]).toBe("Watching PEPE, WIF, BONK, TRUMP.");
    const list = texts(await slash(w, "watchlist", channel, MEMBER)).join("\n");
    expect(list).toMatch(/^Watchlist \(4 of 50\), by 24h change/);
    for (const s of ["PEPE", "WIF", "BONK", "TRUMP"]) expect(list).toContain(s);
  });
});
