import type { Command } from "../command.js";
import { openButton } from "../reply-parts.js";

/** `/start`: what the bot is, with a few first things to try. */
export const startCommand: Command = {
  name: "start",
  description: "Say hello and show a few things to try",
  args: [],
  examples: ["/start"],
  async run(ctx) {
    return {
      title: "Hi, I'm chainpulse",
      tone: "info",
      blocks: [
        { kind: "text", text: "I bring on-chain token markets into this chat: prices, token cards, contract risk, top holders, swaps, trending and ranked lists." },
        { kind: "text", text: "Try /price pepe, /token <address>, /risk <token>, /trending solana or /top meme. Paste a contract address and I show its card. /help lists everything." },
      ],
      actions: [[openButton("Trending", "trending", []), openButton("Top hot", "top", ["hot"]), openButton("Help", "help", [])]],
      footer: { source: ctx.source },
    };
  },
};
