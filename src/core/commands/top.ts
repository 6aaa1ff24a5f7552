import { defineCommand } from "../command.js";
import { RANK_TOPICS } from "../../market/limits.js";
import { footerOf, refreshButton } from "../reply-parts.js";
import { cardButtons, tokenTable } from "./token-list.js";
import { topicName } from "./topics.js";
import { DEFAULT_LOCALE } from "../../i18n/index.js";

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
    const { t, locale } = ctx.i18n;
    const [list, topics] = await Promise.all([
      ctx.market.rankList({ topic, limit: SHOWN }),
      // The list's name in the chat's language, from the (cached) topics; the id will do without them.
      ctx.market.rankTopics().then((r) => r.data, () => []),
    ]);
    const tokens = list.data.slice(0, SHOWN);
    const named = topics.find((x) => x.id === topic);
    return {
      // English keeps the list's id, as typed; other languages read the service's own name for it.
      title: t("top-title", { topic: named === undefined || locale === DEFAULT_LOCALE ? topic : topicName(named, locale) }),
      tone: "info",
      blocks: tokens.length === 0 ? [{ kind: "text", text: t("top-empty") }] : [tokenTable(tokens, { i18n: ctx.i18n })],
      actions: [...cardButtons(tokens), [refreshButton("top", [topic], ctx.i18n)]],
      footer: footerOf(ctx, list),
    };
  },
});
