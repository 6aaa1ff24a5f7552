import type { Command } from "../command.js";
import { openButton } from "../reply-parts.js";

/** `/start`: what the bot is, with a few first things to try. */
export const startCommand: Command = {
  name: "start",
  description: "Say hello and show a few things to try",
  args: [],
  examples: ["/start"],
  async run(ctx) {
    const { t } = ctx.i18n;
    return {
      title: t("start-title"),
      tone: "info",
      blocks: [
        { kind: "text", text: t("start-what") },
        { kind: "text", text: t("start-try") },
      ],
      actions: [[openButton(t("button-trending"), "trending", []), openButton(t("button-top-hot"), "top", ["hot"]), openButton(t("button-help"), "help", [])]],
      footer: { source: ctx.source },
    };
  },
};
