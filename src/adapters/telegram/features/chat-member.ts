/**
 * The bot's own membership: removed from a chat (or blocked in a private one) → forget the
 * chat's settings and subscriptions and stop calling it; a group upgraded to a supergroup →
 * move its state to the new id.
 */
import { Composer, type Context } from "grammy";
import { describeError } from "../errors.js";
import type { FeatureDeps } from "./deps.js";

export function chatMemberFeature(deps: FeatureDeps): Composer<Context> {
  const c = new Composer<Context>();
  c.on("my_chat_member", async (ctx) => {
    const chatId = String(ctx.chat.id);
    const status = ctx.myChatMember.new_chat_member.status;
    if (status !== "left" && status !== "kicked") {
      deps.guard.lift(chatId);
      deps.admins.forgetChat(ctx.chat.id);
      return;
    }
    deps.guard.block(chatId, status === "kicked" ? "Forbidden: bot was kicked from the chat" : "Forbidden: bot is not a member of the chat");
    deps.admins.forgetChat(ctx.chat.id);
    try {
      await deps.store.forgetChat({ platform: "telegram", chatId });
      deps.log.info({ chatId, status }, "telegram bot removed from a chat: its settings and subscriptions are dropped");
    } catch (e) {
      deps.log.error({ err: describeError(e), chatId }, "telegram could not forget a chat");
    }
  });
  c.on("message:migrate_to_chat_id", async (ctx) => {
    const from = String(ctx.chat.id);
    const to = String(ctx.message.migrate_to_chat_id);
    deps.admins.forgetChat(ctx.chat.id);
    try {
      await deps.store.moveChat({ platform: "telegram", chatId: from }, to);
      deps.log.info({ from, to }, "telegram group became a supergroup: its state moved");
    } catch (e) {
      deps.log.error({ err: describeError(e), from, to }, "telegram could not move a chat");
    }
  });
  return c;
}
