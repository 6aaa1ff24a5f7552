/**
 * /chart end to end in Discord: the real core on the sandbox with the real worker renderer,
 * the real adapter logged in to the fake, which records uploads and checks that every
 * `attachment://` reference names a file sent with the message.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_TOKENS } from "../../../src/sandbox/index.js";
import { OptionType, type FakeMessage, type Settled } from "../../fakes/discord-api.js";
import { message, startChartHarness, type ChartHarness } from "./chart-harness.js";

interface Embed {
  title?: string;
  image?: { url: string };
  fields?: { name: string; value: string }[];
  description?: string;
}
interface Button {
  label: string;
  custom_id?: string;
}

let w: ChartHarness;

/** What the user reads: the adapter's markdown escapes removed. */
function visible(s: string | undefined): string {
  return (s ?? "").replace(/\\(.)/g, "$1");
}

function buttons(m: FakeMessage): Button[] {
  return (m.components as { components: Button[] }[]).flatMap((r) => r.components);
}

beforeAll(async () => {
  w = await startChartHarness();
});
afterAll(async () => {
  await w.close();
});
afterEach(() => {
  expect(w.h.fake.violations).toEqual([]);
});

async function chart(token: string, interval?: string): Promise<Settled> {
  const options = [{ name: "token", type: OptionType.string, value: token }];
  if (interval !== undefined) options.push({ name: "interval", type: OptionType.string, value: interval });
  return w.h.fake.chatInput({ name: "chart", options, ...w.place() }).settled();
}

describe("/chart in Discord", () => {
  it("uploads chart.png with the answer and shows it in the embed as attachment://chart.png", async () => {
    const settled = await chart("pepe", "1h");
    const m = message(settled);
    const embed = m.embeds[0] as Embed;
    expect(embed.title).toMatch(/^PEPE · eth · 1h · 24h [▲▼] [+−]\d+\.\d\d%$/);
    expect(embed.image?.url).toBe("attachment://chart.png");
    expect(settled.request.files).toEqual([expect.objectContaining({ name: "chart.png", type: "image/png" })]);
    expect(settled.request.files[0]!.size).toBeGreaterThan(10_000);
    expect(embed.fields?.map((f) => f.name)).toEqual(["Last", "High", "Low", "Range"]);
    expect(buttons(m).map((b) => b.label).slice(0, 8)).toEqual(["1m", "5m", "15m", "· 1h ·", "4h", "1d", "1w", "↻ Refresh"]);
  });

  it("updates the same message with the new picture when an interval button is pressed", async () => {
    const first = message(await chart("wif", "1h"));
    const fourHours = buttons(first).find((b) => b.label === "4h")!.custom_id!;
    const settled = await w.h.fake.button({ customId: fourHours, message: first, ...w.place() }).settled();
    const updated = message(settled);
    expect(updated.id).toBe(first.id);
    expect((updated.embeds[0] as Embed).title).toMatch(/^WIF · \S+ · 4h /);
    expect((updated.embeds[0] as Embed).image?.url).toBe("attachment://chart.png");
    expect(settled.request.files.map((f) => f.name)).toEqual(["chart.png"]);
    expect(updated.attachments.map((a) => (a as { filename: string }).filename)).toEqual(["chart.png"]);
    expect(buttons(updated).map((b) => b.label)).toContain("· 4h ·");
  });

  it("answers a token without trades with its empty picture and a sentence saying so", async () => {
    const none = HOSTILE_TOKENS.find((t) => t.noMarket === true)!;
    const m = message(await chart(none.id, "1d"));
    const embed = m.embeds[0] as Embed;
    expect(embed.image?.url).toBe("attachment://chart.png");
    expect(visible(embed.description)).toContain("No trades in this range: the service has no 1d candles for NOMKT.");
  });

  it("answers an unknown interval to the asker alone, listing the allowed ones", async () => {
    const settled = await chart("pepe", "7m");
    expect(settled.kind === "message" && settled.ephemeral).toBe(true);
    const m = message(settled);
    expect(visible([m.content, ...m.embeds.map((e) => (e as Embed).title)].join(" "))).toContain("is not an interval I chart; choose one of: 1m, 5m, 15m, 30m, 1h, 2h, 4h, 1d, 3d, 1w, 1M");
  });
});
