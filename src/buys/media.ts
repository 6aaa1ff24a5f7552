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
  // The upload's type is what the member's client declared: the bytes say what the file is.
  const found = sniff(data);
  if (found === undefined) throw ctx.i18n.fail("buys-media-not-picture");
  return { kind: found.kind, file: { name: `whale.${found.ext}`, type: found.type, data } };
}

/** What a file's first bytes say it is, among what a whale post can show. */
function sniff(data: Uint8Array): { kind: BuyMedia["kind"]; type: string; ext: string } | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...data.subarray(from, to));
  if (ascii(0, 4) === "GIF8") return { kind: "animation", type: "image/gif", ext: "gif" };
  if (data[0] === 0x89 && ascii(1, 4) === "PNG") return { kind: "photo", type: "image/png", ext: "png" };
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return { kind: "photo", type: "image/jpeg", ext: "jpg" };
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return { kind: "photo", type: "image/webp", ext: "webp" };
  if (ascii(4, 8) === "ftyp") return { kind: "video", type: "video/mp4", ext: "mp4" };
  if (data[0] === 0x1a && data[1] === 0x45 && data[2] === 0xdf && data[3] === 0xa3) return { kind: "video", type: "video/webm", ext: "webm" };
  return undefined;
}
