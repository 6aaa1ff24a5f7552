import { describe, expect, it } from "vitest";
import { createUpdateDedupe } from "../../src/workers/update-dedupe.js";
import { useRedis } from "../engines/redis.js";

const { link } = useRedis();

describe("Telegram update deliveries answered once", () => {
  it("across two workers: the second delivery is told another is on it, then that it was answered", async () => {
    const [a, b] = [createUpdateDedupe({ redis: await link(), scope: "bot1" }), createUpdateDedupe({ redis: await link(), scope: "bot1" })];
    expect(await a.claim(41)).toBe("new");
    expect(await b.claim(41)).toBe("busy");
    await a.answered(41);
    expect(await b.claim(41)).toBe("answered");
    expect(await b.claim(42)).toBe("new");
  });

  it("a delivery of an answered update gets the answer it was given, on any worker; an empty answer stays empty", async () => {
    const [a, b] = [createUpdateDedupe({ redis: await link(), scope: "bot5" }), createUpdateDedupe({ redis: await link(), scope: "bot5" })];
    const body = JSON.stringify({ method: "sendMessage", chat_id: 1, text: "hi" });
    expect(await a.claim(1)).toBe("new");
    await a.answered(1, body);
    expect(await b.claim(1)).toBe("answered");
    expect(await b.answer(1)).toBe(body);
    expect(await a.claim(2)).toBe("new");
    await a.answered(2);
    expect(await b.claim(2)).toBe("answered");
    expect(await b.answer(2)).toBeUndefined();
    const local = createUpdateDedupe({ scope: "local" });
    expect(await local.claim(3)).toBe("new");
    await local.answered(3, body);
    expect(await local.answer(3)).toBe(body);
  });

  it("an update whose worker died before answering is handled by the next delivery once its claim runs out", async () => {
    const redis = await link();
    const dead = createUpdateDedupe({ redis, scope: "bot2", claimMs: 50 });
    const live = createUpdateDedupe({ redis, scope: "bot2", claimMs: 50 });
    expect(await dead.claim(7)).toBe("new");
    await new Promise<void>((resolve) => {
      const again = async (): Promise<void> => ((await live.claim(7)) === "new" ? resolve() : void setTimeout(() => void again(), 20));
      void again();
    });
  });

  it("keeps two bots apart, and works in process without Redis", async () => {
    const redis = await link();
    expect(await createUpdateDedupe({ redis, scope: "bot3" }).claim(1)).toBe("new");
    expect(await createUpdateDedupe({ redis, scope: "bot4" }).claim(1)).toBe("new");
    const local = createUpdateDedupe({ scope: "local" });
    expect(await local.claim(1)).toBe("new");
    expect(await local.claim(1)).toBe("busy");
    await local.answered(1);
    expect(await local.claim(1)).toBe("answered");
  });
});
