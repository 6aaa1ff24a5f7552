/**
 * `BotCore.render` on its own: what a sender needs to write a post that is no command's answer,
 * without the rest of the core. The chat's language is chosen as for every post the bot makes
 * unasked (`postLanguage`); the footer's source label is the core's, in that language.
 */
import type { Logger } from "pino";
import { messages, postLanguage, sourceIn, type Catalog, type Translator } from "../../i18n/index.js";
import type { SettingsStore } from "../../store/types.js";
import type { BotCore } from "../bot-core.js";
import { errorReply } from "../reply.js";
import { renderPost } from "./render.js";

export interface PostRendererDeps {
  /** Where the chat's `/settings language` is read. */
  settings: Pick<SettingsStore, "getSettings">;
  /** Footer source label, or the label in a language (as `CoreDeps.source`). */
  source: string | ((i18n: Translator) => string);
  log: Logger;
  /** The message files. Default the package's own. */
  catalog?: Catalog;
}

export function createPostRenderer(deps: PostRendererDeps): Pick<BotCore, "render"> {
  const catalog = deps.catalog ?? messages();
  return {
    async render(chat, post) {
      const i18n = await postLanguage(deps.settings, { platform: chat.platform, chatId: chat.chatId }, catalog);
      try {
        const source = typeof deps.source === "string" ? sourceIn(deps.source, i18n) : deps.source(i18n);
        return renderPost(post, source, i18n);
      } catch (error) {
        deps.log.error({ err: error instanceof Error ? error.message : String(error), kind: post.kind, chatId: chat.chatId }, "a scheduled post's record could not be read");
        return { ...errorReply(i18n.t("core-sorry"), "internal"), locale: i18n.locale };
      }
    },
  };
}
