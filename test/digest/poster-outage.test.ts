/** The digest poster while the store cannot be reached: its ticks fail, and the log says so quietly. */
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/core/reply.js";
import { createPoster } from "../../src/digest/poster.js";
import { StoreError } from "../../src/store/errors.js";
import type { SettingsStore, SubscriptionStore } from "../../src/store/types.js";

const NO_REPLY: Reply = { title: "", tone: "info", blocks: [], actions: [] };

/** A subscription store whose every call fails as an unreachable PostgreSQL does. */
const unreachable = new Proxy({} as SubscriptionStore, {
  get: () => () => Promise.reject(new StoreError("unavailable", "the database cannot be reached")),
});

describe("the digest poster with the store unreachable", () => {
  it("logs a failed tick at debug without a stack, leaving errors to bugs", async () => {
    const lines: Record<string, unknown>[] = [];
    let logged!: () => void;
    const first = new Promise<void>((resolve) => (logged = resolve));
    const logger = pino({ level: "debug" }, {
      write: (l: string) => {
        const line = JSON.parse(l) as Record<string, unknown>;
        lines.push(line);
        if (String(line.msg).startsWith("digest tick failed")) logged();
      },
    });
    const poster = createPoster({
      subscriptions: unreachable, chats: {} as SettingsStore, core: { post: async () => NO_REPLY, render: async () => NO_REPLY },
      adapters: {}, queues: {}, logger,
    });
    poster.start();
    await first;
    await poster.stop();
    expect(lines.filter((l) => String(l.msg).startsWith("digest tick failed")).map((l) => [l.level, l.msg, typeof l.err])).toEqual([
      [20, "digest tick failed: store unreachable", "string"],
    ]);
  });
});
