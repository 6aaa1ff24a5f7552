import { afterEach, describe, expect, it } from "vitest";
import { createActionStore, CUSTOM_ID_PREFIX, renderButtons } from "../../../src/adapters/discord/buttons.js";
import { openSqliteStore, type SqliteStore } from "../../../src/store/sqlite/store.js";

const DAY = 24 * 60 * 60 * 1000;
const TOKENS = ["0x6982508145454ce325ddbe47a25d4ec3d2311933-eth", "0x95ad61b0a150d79219dcf64e1e6cc01f0b64c4ce-eth", "0x4d224452801aced8b2f0aebe155379bb5d594381-eth"];

describe("Discord buttons that outlive the process", () => {
  let store: SqliteStore | undefined;
  afterEach(async () => {
    await store?.close();
  });

  it("maps a custom id too long for its action back after a restart, for a week, and not after its lifetime", async () => {
    store = await openSqliteStore({ path: ":memory:" });
    let clock = Date.UTC(2026, 10, 22, 8, 0);
    const before = createActionStore({ store: store.buttonActions, now: () => clock });
    const [row] = renderButtons([[{ kind: "command", label: "Compare", command: "price", args: TOKENS, edit: false }]], before);
    const customId = (row?.components[0] as { custom_id: string }).custom_id;
    expect(customId.length).toBeLessThanOrEqual(100);
    expect(customId.startsWith(`${CUSTOM_ID_PREFIX}k:`)).toBe(true);

    const after = createActionStore({ store: store.buttonActions, now: () => clock });
    const id = customId.slice(CUSTOM_ID_PREFIX.length);
    expect(await after.get(id)).toEqual({ command: "price", args: TOKENS, edit: false });
    clock += 6 * DAY + 23 * 60 * 60 * 1000;
    expect(await after.get(id)).toEqual({ command: "price", args: TOKENS, edit: false });
    clock += 2 * DAY;
    expect(await after.get(id)).toBeUndefined();
  });

  it("keeps a short action whole in the custom id, needing no store at all", async () => {
    const [row] = renderButtons([[{ kind: "command", label: "Refresh", command: "price", args: ["pepe"], edit: true }]], createActionStore({ secret: "bot-token" }));
    const customId = (row?.components[0] as { custom_id: string }).custom_id;
    expect(customId).toMatch(/^cp:ie[A-Za-z0-9_-]{6}:price pepe$/);
    // Another worker of the same bot reads it.
    expect(await createActionStore({ secret: "bot-token" }).get(customId.slice(CUSTOM_ID_PREFIX.length))).toEqual({ command: "price", args: ["pepe"], edit: true });
  });

  it("reads no action from inline data its bot did not sign", async () => {
    const actions = createActionStore({ secret: "bot-token" });
    const [row] = renderButtons([[{ kind: "command", label: "Refresh", command: "price", args: ["pepe"], edit: true }]], actions);
    const body = (row?.components[0] as { custom_id: string }).custom_id.slice(CUSTOM_ID_PREFIX.length);
    const tag = body.slice(2, 8);
    for (const forged of ["ie:help", `ie${tag}:help`, `in${tag}:price pepe`, "ieAAAAAA:price pepe"]) expect(await actions.get(forged), forged).toBeUndefined();
    expect(await createActionStore({ secret: "another-bot" }).get(body)).toBeUndefined();
  });
});
