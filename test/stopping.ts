/** What the tests of a stop with the database gone share: the bot's own signal handling, and the world's teardown. */
import { EventEmitter } from "node:events";
import { pino } from "pino";
import { handleShutdownSignals } from "../src/ops/shutdown.js";
import type { MarketClient } from "../src/market/client.js";
import type { Sandbox } from "../src/sandbox/index.js";
import type { PostgresStore } from "../src/store/postgres/store.js";
import type { PostgresEngine } from "./engines/postgres.js";

/** The exit code SIGTERM leads to with `stop` as the bot's stop, through the bot's own signal handling. */
export function sigterm(stop: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const emitter = new EventEmitter();
    handleShutdownSignals({ stop: () => stop(), timeoutMs: 10_000, logger: pino({ level: "silent" }), exit: resolve, emitter });
    emitter.emit("SIGTERM");
  });
}

/** Ends a world whose PostgreSQL a test may have stopped: closing its store then fails, and is not the test's subject. */
export async function endWorld(w: { client: MarketClient; sandbox: Sandbox; store: PostgresStore; engine: PostgresEngine }): Promise<void> {
  await w.client.close();
  await w.sandbox.close();
  await w.store.close().catch(() => undefined);
  await w.engine.destroy();
}
