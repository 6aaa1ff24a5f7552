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
