import type { Command } from "../command.js";
import { cleanText } from "../format/index.js";
import { footerOf, openButton, rows } from "../reply-parts.js";

/** `/topics`: the ranked lists the service keeps. */
export const topicsCommand: Command = {
  name: "topics",
  description: "The ranked token lists you can open with /top",
  args: [],
  examples: ["/topics"],
  async run(ctx) {
    const topics = await ctx.market.rankTopics();
    return {
      title: `Ranked lists (${topics.data.length})`,
      tone: "info",
      blocks: [
        {
          kind: "table",
          columns: ["topic", "name"],
          rows: topics.data.map((t) => [cleanText(t.id, 16), cleanText(t.name_en, 40)]),
        },
        { kind: "text", text: "Open one with /top <topic>, e.g. /top meme." },
      ],
      actions: rows(topics.data.map((t) => openButton(cleanText(t.name_en ?? t.id, 24), "top", [t.id])), 5, 4),
      footer: footerOf(ctx, topics),
    };
  },
};
