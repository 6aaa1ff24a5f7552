import { describe, expect, it } from "vitest";
import { firingReply } from "../../src/alerts/message.js";
import { messages } from "../../src/i18n/index.js";

const en = messages().translator("en");
const zh = messages().translator("zh");
const AT = Date.UTC(2026, 10, 24, 9, 30);
const paused = { kind: "paused" as const, payload: JSON.stringify({ numbers: [3, 5], tokenId: "x-solana", symbol: "GONE", chain: "solana", since: AT }) };

describe("the messages alerts post", () => {
  it("says once which alerts a silent token paused, in the chat's language", () => {
    expect(firingReply(paused, "demo data (sandbox)", en)?.title).toBe("Alerts #3, #5 are paused: GONE on solana has had no price for 24 hours.");
    expect(firingReply({ ...paused, payload: paused.payload.replace("[3,5]", "[3]") }, "s", en)?.title).toBe(
      "Alert #3 is paused: GONE on solana has had no price for 24 hours.",
    );
    expect(firingReply(paused, "s", zh)?.title).toBe("提醒 #3, #5 已暂停：GONE（solana）已 24 小时没有价格。");
  });

  it("names the token, the rule, both prices and the time of a move, with Card, Chart and Delete but no Re-arm", () => {
    const payload = { number: 4, tokenId: "x-solana", symbol: "<b>WIF</b>", chain: "solana", rule: "move", level: "10", from: "2", price: "1.75", at: AT };
    const reply = firingReply({ kind: "fired", payload: JSON.stringify(payload) }, "s", en)!;
    expect(reply.title).toBe("Alert #4: <b>WIF</b> moved ▼ −12.50%");
    expect(reply.tone).toBe("danger");
    expect(reply.blocks[0]).toEqual({
      kind: "fields",
      fields: [
        { label: "Token", value: "<b>WIF</b> on solana", inline: true },
        { label: "Alert", value: "#4: moves 10% either way", inline: true },
        { label: "Price", value: "$1.75 (▼ −12.50%)", inline: true },
        { label: "Anchor", value: "$2.00", inline: true },
        { label: "Time", value: "24 Nov 09:30 UTC", inline: true },
      ],
    });
    expect(reply.actions.flat().map((a) => a.label)).toEqual(["Card", "Chart", "Delete"]);
  });

  it("drops a record it cannot read instead of sending garbage", () => {
    expect(firingReply({ kind: "fired", payload: "{not json" }, "s", en)).toBeUndefined();
  });
});
