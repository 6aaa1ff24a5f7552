/** What a chat reads when its digest was paused because the bot may not post there. */
import type { Translator } from "../../i18n/index.js";
import type { Reply } from "../reply.js";

export function digestPausedReply(chain: string, i18n: Translator): Reply {
  return {
    title: i18n.t("digest-paused-title", { chain }),
    tone: "warn",
    blocks: [{ kind: "text", text: i18n.t("digest-paused-how", { chain }) }],
    actions: [],
    locale: i18n.locale,
  };
}
