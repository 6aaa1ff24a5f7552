/**
 * The scheduled posts that are not a command's answer, as their senders recorded them, and the
 * one switch that writes each in a chat's language (`BotCore.render`). A record is read here,
 * at send time, so a post queued before a restart or a `/settings language` reads as the chat
 * reads now.
 */
import type { Translator } from "../../i18n/index.js";
import type { Reply, ReplyMedia } from "../reply.js";
import { firedPayload, firedReply, pausedPayload, pausedReply } from "./alert.js";
import { buyRecord, buyReply, buySummaryReply } from "./buy.js";
import { digestPausedReply } from "./digest-paused.js";
import { launchPayload, launchReply, summaryPayload, summaryReply } from "./launch.js";

/** A post by what it is; `record` is the JSON its sender stored on the post's row. */
export type ScheduledPost =
  | { kind: "alert-fired"; record: string }
  | { kind: "alert-paused"; record: string }
  | { kind: "launch"; record: string }
  | { kind: "launch-summary"; record: string }
  | { kind: "digest-paused"; chain: string }
  /** A trade of the buy feed, as it reads at `at` (epoch ms); a whale buy shows `media`, the chat's. */
  | { kind: "buy"; record: string; at: number; media?: ReplyMedia }
  | { kind: "buy-summary"; record: string };

/** The post in `i18n`'s language; throws when its record cannot be read. */
export function renderPost(post: ScheduledPost, source: string, i18n: Translator): Reply {
  switch (post.kind) {
    case "alert-fired":
      return firedReply(firedPayload.parse(JSON.parse(post.record)), source, i18n);
    case "alert-paused":
      return pausedReply(pausedPayload.parse(JSON.parse(post.record)), source, i18n);
    case "launch":
      return launchReply(launchPayload.parse(JSON.parse(post.record)), source, i18n);
    case "launch-summary":
      return summaryReply(summaryPayload.parse(JSON.parse(post.record)), source, i18n);
    case "digest-paused":
      return digestPausedReply(post.chain, i18n);
    case "buy":
      return buyReply(buyRecord.parse(JSON.parse(post.record)), post.at, source, i18n, post.media);
    case "buy-summary":
      return buySummaryReply(buyRecord.parse(JSON.parse(post.record)), source, i18n);
  }
}
