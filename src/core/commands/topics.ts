import type { Command } from "../command.js";
import { cleanText } from "../format/index.js";
import { footerOf, openButton, rows } from "../reply-parts.js";
import type { RankTopic } from "../../market/schemas.js";

/** `/topics`: the ranked lists the service keeps. */
/**
 * A ranked list's name in `locale`, from the service's own names (`name_en`, `name_zh`):
 * English when the service has none in that language, else the id.
 */
export function topicName(topic: RankTopic, locale: string): string {
  const own = locale === "zh" ? topic.name_zh : locale === "en" ? topic.name_en : undefined;
  const name = [own, topic.name_en].find((n) => n !== undefined && n.trim() !== "");
  return name ?? topic.id;
}

export const topicsCommand: Command = {
  name: "topics",
  description: "The ranked token lists you can open with /top",
  args: [],
  examples: ["/topics"],
  async run(ctx) {
    const topics = await ctx.market.rankTopics();
    const { t, locale } = ctx.i18n;
    return {
      title: t("topics-title", { count: topics.data.length }),
      tone: "info",
      blocks: [
        {
          kind: "table",
          columns: [t("topics-col-topic"), t("topics-col-name")],
          rows: topics.data.map((x) => [cleanText(x.id, 16), cleanText(topicName(x, locale), 40)]),
        },
        { kind: "text", text: t("topics-how") },
      ],
      actions: rows(topics.data.map((x) => openButton(cleanText(topicName(x, locale), 24), "top", [x.id])), 5, 4),
      footer: footerOf(ctx, topics),
    };
  },
};
