/**
 * Discord's limit per channel kept by two workers together: two discord.js REST clients, each
 * under its own gate on its own connection to one real Redis (as two worker processes have
 * them), post to one channel of the fake Discord, which takes 3 posts a second there and answers
 * 429 past them, as Discord does. Neither worker alone sees the other's posts; together they stay
 * inside the channel's limit, which they learn from the answers' rate-limit headers.
 */
import { DefaultRestOptions, REST, Routes, type RESTOptions } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import type { DiscordMessage } from "../../../src/adapters/discord/message.js";
import { DISCORD_GLOBAL_PER_SECOND, sharedRestGate } from "../../../src/adapters/discord/rest-gate.js";
import { discordRestAgent } from "../../../src/adapters/discord/rest-agent.js";
import { postToChannel, rejectChannelPostsOnRateLimit } from "../../../src/adapters/discord/send.js";
import { redisPaceLedger } from "../../../src/redis/pace-ledger.js";
import { redisRoutePace } from "../../../src/redis/route-pace.js";
import { useRedis } from "../../engines/redis.js";
import { startFakeDiscord, type FakeDiscord } from "../../fakes/discord-api.js";

const { link } = useRedis();

const CHANNEL = "500000000000000961";
/** What the fake's channel takes: fewer than the 5 the workers assume before its first answer, in a shorter window. */
const LIMIT = { limit: 3, windowMs: 1000 };
const POSTS_EACH = 5;

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function post(text: string): DiscordMessage {
  return { embeds: [{ title: text }], components: [], files: [], ephemeral: false };
}

/** A worker's REST client as the adapter builds it with Redis, and its post as `prepareSend` makes one: turns first, then the request. */
async function worker(discord: FakeDiscord) {
  const redis = await link();
  const scope = `discord-rest:${discord.applicationId}`;
  const gate = sharedRestGate({
    ledger: redisPaceLedger({ redis, scope, ratePerSecond: DISCORD_GLOBAL_PER_SECOND }),
    routes: redisRoutePace({ redis, scope }),
  });
  const rest = new REST({
    api: discord.apiRoot,
    rejectOnRateLimit: rejectChannelPostsOnRateLimit,
    agent: discordRestAgent(),
    makeRequest: gate(DefaultRestOptions.makeRequest as NonNullable<RESTOptions["makeRequest"]>),
  }).setToken(discord.token);
  return async (text: string) => {
    await gate.reserve("POST", Routes.channelMessages(CHANNEL));
    return postToChannel(rest, CHANNEL, post(text));
  };
}

describe("a channel's limit kept by two workers on one Redis", () => {
  it(`posts ${2 * POSTS_EACH} messages of two workers to one channel taking ${LIMIT.limit} a second: no 429, every message once`, async () => {
    const discord = (fake = await startFakeDiscord({ channelLimit: LIMIT }));
    const [a, b] = [await worker(discord), await worker(discord)];
    // As the paced queue does: a post discord.js itself held back for its own reading of the
    // bucket (on a loaded machine it reads the reset late) is sent again after the wait it names.
    // Only the fake's 429s would mean the workers broke the channel's limit, and they are checked.
    const sendAll = async (send: (text: string) => ReturnType<typeof a>, name: string) => {
      const outcomes = [];
      for (let i = 0; i < POSTS_EACH; i++) {
        let out = await send(`${name} ${i}`);
        while (out.kind === "retry" && out.reason === undefined) {
          await new Promise((r) => setTimeout(r, out.kind === "retry" ? out.afterMs : 0));
          out = await send(`${name} ${i}`);
        }
        outcomes.push(out.kind);
      }
      return outcomes;
    };
    const outcomes = await Promise.all([sendAll(a, "a"), sendAll(b, "b")]);

    expect(outcomes.flat()).toEqual(Array.from({ length: 2 * POSTS_EACH }, () => "delivered"));
    const posts = discord.requests.filter((r) => r.method === "POST" && r.path === `/channels/${CHANNEL}/messages`);
    expect(posts.filter((r) => r.status === 429)).toEqual([]);
    const titles = [...discord.messages.values()].filter((m) => m.channel_id === CHANNEL).map((m) => (m.embeds[0] as { title: string }).title);
    expect(titles.sort()).toEqual(["a", "b"].flatMap((n) => Array.from({ length: POSTS_EACH }, (_, i) => `${n} ${i}`)).sort());
  });
});
