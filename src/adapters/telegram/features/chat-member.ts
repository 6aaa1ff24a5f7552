/**
 * The bot's own membership: removed from a chat (or blocked in a private one) → stop calling
 * it and tell the core, which forgets the chat's settings and subscriptions; a group upgraded
 * to a supergroup → the core moves its state to the new id.
 */
import { Composer, type Context } from "grammy";
import type { FeatureDeps } from "./deps.js";

export function chatMemberFeature(deps: FeatureDeps): Composer<Context> {
  const c = new Composer<Context>();
  c.on("my_chat_member", async (ctx) => {
    const chatId = String(ctx.chat.id);
    const status = ctx.myChatMember.new_chat_member.status;
    deps.admins.forgetChat(ctx.chat.id);
    if (status !== "left" && status !== "kicked") {
      deps.guard.lift(chatId);
      return;
    }
    deps.guard.block(chatId, status === "kicked" ? "Forbidden: bot was kicked from the chat" : "Forbidden: bot is not a member of the chat");
    await deps.core.chats.left({ platform: "telegram", chatId });
  });
  c.on("message:migrate_to_chat_id", async (ctx) => {
    deps.admins.forgetChat(ctx.chat.id);
    await deps.core.chats.moved({ platform: "telegram", chatId: String(ctx.chat.id) }, String(ctx.message.migrate_to_chat_id));
  });
  return c;
}
