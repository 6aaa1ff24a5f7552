/**
 * A feed's media from the file `/buys <token> media` came with: a photo, GIF or video. On
 * Telegram it is the file's id, which the bot may send again for as long as it likes. On Discord
 * a member's upload is an ephemeral attachment behind a signed link that expires within a day
 * (and a refreshed link would not outlive the file), so the bot reads the file once, now, and
 * keeps its own copy, which it uploads with each whale post: bounded to fit Discord's upload limit.
 */
import type { CommandContext } from "../core/command.js";
import type { BuyMedia } from "../store/types.js";

/** The largest copy kept: under Discord's 10 MiB upload limit with the rest of the message. */
export const MEDIA_MAX_BYTES = 8 * 1024 * 1024;

const MB = 1024 * 1024;

/** The media of the file the command came with; a UserError that says what is wrong otherwise. */
export async function attachedMedia(ctx: CommandContext, symbol: string): Promise<BuyMedia> {
  const a = ctx.chat.attached;
  if (a === undefined) throw ctx.i18n.fail("buys-media-missing", { symbol });
  if (a.kind === "other") throw ctx.i18n.fail("buys-media-not-picture");
  if (a.fileId !== undefined) return { kind: a.kind, fileId: a.fileId };
  const file = a.file;
  if (file === undefined) throw ctx.i18n.fail("buys-media-missing", { symbol });
  // To a tenth, and never shown as within the limit it is over (8.01 MB reads 8.1).
  const tooBig = (bytes: number) =>
    ctx.i18n.fail("buys-media-too-big", { size: Math.max(Math.round((bytes / MB) * 10) / 10, MEDIA_MAX_BYTES / MB + 0.1), max: MEDIA_MAX_BYTES / MB });
  if (file.size > MEDIA_MAX_BYTES) throw tooBig(file.size);
  let data: Uint8Array;
  try {
    data = await file.read();
  } catch (e) {
    ctx.log.warn({ err: e instanceof Error ? e.message : String(e) }, "a /buys media file could not be read");
    throw ctx.i18n.fail("buys-media-unreadable");
  }
  if (data.length > MEDIA_MAX_BYTES) throw tooBig(data.length);
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(file.name)?.[1]?.toLowerCase() ?? "bin";
  return { kind: a.kind, file: { name: `whale.${ext}`, type: file.type, data } };
}
