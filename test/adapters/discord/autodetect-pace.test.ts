/**
 * Auto-detect cards in a channel at Discord's limit of posts: the fake takes 5 posts a window
 * per channel, as Discord does, and the real adapter with discord.js answers pastes there. A card
 * waits for the channel's turn instead of being dropped, within one window of Discord's pace
 * (5 s); one whose turn lies further off is logged, not sent.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness.js";

const GUILD = "400000000000000377";
const CHANNEL = "500000000000000377";

let harness: Harness | undefined;
afterEach(async () => {
  expect(harness?.fake.violations).toEqual([]);
  await harness?.close();
  harness = undefined;
});

/** A harness whose channels take `limit` posts per `windowMs` of real time, with auto-detect on in CHANNEL. */
async function busyChannel(windowMs: number): Promise<Harness> {
  // A paste whose lookup misses the answer deadline gets no card in a channel (noise there): on a
  // loaded machine twelve lookups at once can, and this test is about the channel's pace.
  const h = (harness = await startHarness({ adapter: { messageContent: true }, fake: { channelLimit: { limit: 5, windowMs } }, real: { answerDeadlineMs: 60_000 } }));
  h.fake.guildCreate({ id: GUILD, channelIds: [CHANNEL] });
  await h.store.updateSettings({ platform: "discord", chatId: CHANNEL }, { autodetect: true });
  return h;
}

/** `n` different eth addresses of the sandbox's tokens. */
function addresses(h: Harness, n: number): string[] {
  const found = (h.real?.sandbox.market.tokens ?? []).filter((t) => t.chain === "eth").slice(0, n).map((t) => t.address);
  if (found.length < n) throw new Error(`the sandbox has ${found.length} eth tokens`);
  return found;
}

function cardsPosted(h: Harness): number {
  return h.fake.requests.filter((r) => r.method === "POST" && r.path === `/channels/${CHANNEL}/messages` && r.status === 200).length;
}

describe("Discord auto-detect in a channel at its limit of posts", () => {
  it("answers every one of 12 pasted addresses, each card in the channel's turn", async () => {
    const h = await busyChannel(200);
    for (const address of addresses(h, 12)) h.fake.messageCreate({ channelId: CHANNEL, guildId: GUILD, content: `look ${address}` });
    await h.fake.waitFor(() => cardsPosted(h) >= 12);
    expect(h.fake.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(h.logs.filter((l) => l.includes("auto-detect"))).toEqual([]);
  });

  it("drops and logs a card whose turn lies past one window of the channel's pace", async () => {
    const h = await busyChannel(60_000);
    for (const address of addresses(h, 6)) h.fake.messageCreate({ channelId: CHANNEL, guildId: GUILD, content: address });
    const dropped = await h.logged("discord auto-detect card dropped");
    expect(dropped).toContain(`"channel":"${CHANNEL}"`);
    expect(cardsPosted(h)).toBe(5);
    expect(h.logs.filter((l) => l.includes("discord auto-detect failed"))).toEqual([]);
  });
});
