import { defineCommand } from "../command.js";
import { RANK_TOPICS } from "../../market/limits.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { cardButtons, tokenTable } from "./token-list.js";

/** Rows of a ranked list shown. */
const SHOWN = 15;

/** `/top <topic>`: a ranked list (hot, meme, gainer, …). */
export const topCommand = defineCommand({
  name: "top",
  description: "A ranked token list: hot, meme, gainer, loser, new, ai, …",
  args: [{ name: "topic", description: "Which list; /topics shows them all", type: "topic", required: true, choices: RANK_TOPICS }],
  examples: ["/top hot", "/top meme", "/top gainer"],
  async run(ctx, args) {
    const topic = args.topic;
    const list = await ctx.market.rankList({ topic, limit: SHOWN });
    const tokens = list.data.slice(0, SHOWN);
    return {
      title: `Top: ${topic}`,
      tone: "info",
      blocks: tokens.length === 0 ? [{ kind: "text", text: "This list is empty right now." }] : [tokenTable(tokens)],
      actions: [...cardButtons(tokens), [refreshButton("top", [topic])]],
      footer: footerOf(ctx, list),
    };
  },
});
