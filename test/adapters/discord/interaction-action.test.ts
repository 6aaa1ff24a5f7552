/**
 * The one private discord.js API the adapter uses (`client.actions.InteractionCreate`, which
 * turns an interaction that came over HTTP into discord.js's objects and its event), pinned:
 * an upgrade of discord.js fails here until the path is checked again and the pin moved.
 */
import { ChatInputCommandInteraction, Client, Events, GatewayIntentBits, version, type Interaction } from "discord.js";
import { afterEach, describe, expect, it } from "vitest";
import { CHECKED_DISCORD_JS, interactionDispatcher } from "../../../src/adapters/discord/interaction-action.js";

describe("discord.js's private interaction path", () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.destroy()));
  });

  it("is the discord.js version the path was checked against", () => {
    expect(version, `discord.js was upgraded: check client.actions.InteractionCreate in ${version}, then move CHECKED_DISCORD_JS`).toBe(CHECKED_DISCORD_JS);
  });

  it("turns a raw slash command into the ChatInputCommandInteraction the gateway would emit", async () => {
    const client = new Client({ intents: [GatewayIntentBits.Guilds] });
    clients.push(client);
    const emitted = new Promise<Interaction>((resolve) => client.once(Events.InteractionCreate, resolve));
    interactionDispatcher(client)({
      id: "1300000000000000001",
      application_id: "900000000000000001",
      type: 2,
      token: "interaction-token",
      version: 1,
      locale: "en-US",
      app_permissions: "0",
      entitlements: [],
      authorizing_integration_owners: { "0": "1200000000000000002" },
      context: 0,
      channel_id: "1200000000000000001",
      user: { id: "1100000000000000001", username: "ana", discriminator: "0", global_name: "Ana", avatar: null },
      data: { id: "1000000000000000001", name: "price", type: 1, options: [{ name: "tokens", type: 3, value: "pepe" }] },
    });
    const interaction = await emitted;
    expect(interaction).toBeInstanceOf(ChatInputCommandInteraction);
    if (!interaction.isChatInputCommand()) throw new Error("not a slash command");
    expect([interaction.id, interaction.commandName, interaction.options.get("tokens")?.value]).toEqual(["1300000000000000001", "price", "pepe"]);
  });

  it("refuses to build on a client without the path, with a sentence naming the fix", () => {
    const client = new Client({ intents: [GatewayIntentBits.Guilds] });
    clients.push(client);
    Object.defineProperty(client, "actions", { value: {} });
    expect(() => interactionDispatcher(client)).toThrow(/no client\.actions\.InteractionCreate .*DISCORD_PUBLIC_KEY/);
  });
});
