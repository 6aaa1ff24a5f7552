/**
 * A price alert across three `chainpulse start` workers on real PostgreSQL and Redis (the world
 * of workers-world.ts), its sender SIGKILLed at the two moments that matter:
 * - with the alert's request on its way, never reaching Telegram (the fake holds it until the
 *   worker is dead, then drops it): another worker marks the firing interrupted and sends it
 *   once more, so the chat gets the alert exactly once, recorded `resent`;
 * - after Telegram answered and the outcome was recorded: nothing is sent again, although
 *   another worker has looked at the dead one's firings since (a later alert went out after
 *   its check and recovery).
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open-store.js";
import type { Store } from "../../src/store/types.js";
import type { ApiCall } from "../fakes/telegram-api.js";
import { ready, startWorkersWorld, type Worker, type WorkersWorld } from "./workers-world.js";
import { until } from "./until.js";

const WORKERS = 3;
const RPS = 5;
const TELEGRAM_RATE = 25;
/** The shortest check period the bot takes: a check every 10 s. */
const CHECK_SECONDS = 10;
/** Starting three workers on a busy 2-core machine. */
const START_MS = 120_000;
/** A check (10 s), a kill, the next worker's check and send, on a loaded machine. */
const SCENARIO_MS = 120_000;

let world: WorkersWorld;
let store: Store;
let nextChat = 4_100_000;

beforeAll(async () => {
  world = await startWorkersWorld({ workers: WORKERS, rps: RPS, telegramRate: TELEGRAM_RATE, env: { ALERT_CHECK_SECONDS: String(CHECK_SECONDS) } });
  store = await openStore({ databaseUrl: world.databaseUrl, databasePath: ":memory:" });
}, START_MS);

afterAll(async () => {
  await store?.close();
  await world?.close();
}, START_MS);

interface Firing {
  state: string;
  sender: string | null;
  attempts: number;
}

async function firingsOf(chatId: string): Promise<Firing[]> {
  const client = new pg.Client({ connectionString: world.databaseUrl });
  await client.connect();
  try {
    const r = await client.query("SELECT state, sender, attempts::int AS attempts FROM alert_firings WHERE chat_id = $1", [chatId]);
    return r.rows as Firing[];
  } finally {
    await client.end();
  }
}

/**
 * An alert in a chat of its own that fires at the next check: `symbol` above a level it passed
 * since the alert was set. A token of its own each, since the checker fires on a crossing
 * since its last look at the token's price.
 */
async function alertThatFires(symbol: string): Promise<string> {
  const chatId = String((nextChat += 1));
  const token = world.sandbox.market.bySymbol(symbol)[0]!;
  const now = Date.now();
  const price = world.sandbox.market.priceAt(token, Math.floor(now / 1000));
  const added = await store.alerts.addAlert(
    { platform: "telegram", chatId, tokenId: token.id, symbol, chain: "solana", rule: "above", level: String(price * 0.9), anchorPrice: String(price * 0.5), anchorAt: now - 60_000 },
    20,
    now - 60_000,
  );
  expect("alert" in added).toBe(true);
  return chatId;
}

/** What the fake and the workers' logs say, for a timeout's message. */
function diagnosis(chatId: string): string {
  const calls = world.tg.calls.filter((c) => c.chatId === chatId).map((c) => `${c.method}:${c.ok}`);
  const logs = world.workers.map((w) => `${w.id}: ${w.proc.stderr().split("\n").filter((l) => /alert|lease|error|warn/i.test(l)).slice(-8).join("\n")}`);
  return `calls ${calls.join(" ") || "none"}\n${logs.join("\n")}`;
}

const alertsIn = (chatId: string) => world.tg.sent.filter((s) => s.chatId === chatId && s.text.includes(" is above "));

/** Kills `worker` and waits until it is gone. */
async function kill(worker: Worker): Promise<void> {
  worker.proc.child.kill("SIGKILL");
  await worker.proc.exited;
}

describe("an alert's sender SIGKILLed across three workers", () => {
  it(
    "with the alert's request on its way and never at Telegram: another worker sends it once more, and the chat has it exactly once",
    async () => {
      const { tg } = world;
      let held: ApiCall | undefined;
      let dead!: () => void;
      const senderDead = new Promise<void>((r) => (dead = r));
      const chatId = await alertThatFires("WIF");
      tg.onArrival(async (call) => {
        if (call.method !== "sendMessage" || call.chatId !== chatId || held !== undefined) return undefined;
        held = call;
        await senderDead;
        return "drop";
      });
      try {
        await until(() => held !== undefined, "the alert's request", SCENARIO_MS / 2);
        const [claimed] = await firingsOf(chatId);
        expect(claimed?.state).toBe("sending");
        const victim = world.holderOf(claimed?.sender ?? undefined);
        expect(victim).toBeDefined();
        await kill(victim!);
        dead();
        await until(async () => (await firingsOf(chatId))[0]?.state === "resent", "the firing resent by another worker", SCENARIO_MS / 2);
        const [resent] = await firingsOf(chatId);
        expect(resent?.sender).not.toBe(claimed?.sender);
        expect(resent?.attempts).toBe(2);
        expect(alertsIn(chatId)).toHaveLength(1);
        expect(tg.calls.filter((c) => c.chatId === chatId && c.method === "sendMessage").map((c) => c.ok)).toEqual([false, true]);
        world.respawn(world.workers.indexOf(victim!));
        await ready(victim!.port);
      } finally {
        tg.onArrival(undefined);
      }
    },
    SCENARIO_MS + 60_000,
  );

  it(
    "after Telegram answered and the outcome was recorded: nothing is sent again, though the others have recovered the dead worker's firings since",
    async () => {
      const chatId = await alertThatFires("BONK");
      await until(async () => (await firingsOf(chatId))[0]?.state === "delivered", () => `the alert delivered and recorded; ${diagnosis(chatId)}`, SCENARIO_MS / 2);
      const [delivered] = await firingsOf(chatId);
      const victim = world.holderOf(delivered?.sender ?? undefined);
      expect(victim).toBeDefined();
      await kill(victim!);

      // A worker sends a firing only after its tick's recovery: once a later alert is out, the
      // dead worker's firings have been looked at.
      const later = await alertThatFires("TRUMP");
      // The dead worker may have held the checker's lease: the next takes it when it runs out (30 s).
      await until(async () => ["delivered", "resent"].includes((await firingsOf(later))[0]?.state ?? ""), () => `a later alert sent by another worker; ${diagnosis(later)}`, SCENARIO_MS - 20_000);
      expect((await firingsOf(later))[0]?.sender).not.toBe(delivered?.sender);
      expect(await firingsOf(chatId)).toEqual([delivered]);
      expect(alertsIn(chatId)).toHaveLength(1);
      expect(alertsIn(later)).toHaveLength(1);
    },
    SCENARIO_MS + 30_000,
  );
});
