/**
 * Launch posts as a kind of the send protocol (src/delivery/protocol.ts): rows of
 * `launch_posts`, claimed under the digest poster's lease, whose holder is the one watcher.
 */
import type { SendKind } from "../delivery/protocol.js";
import type { LaunchPost, LaunchStore, SettingsStore } from "../store/types.js";

/** The digest poster's lease: launches go out from the worker that posts digests. */
export const LAUNCH_LEASE = "digest-poster";

export function launchKind(launches: LaunchStore, chats: Pick<SettingsStore, "forgetChat" | "moveChat">, holder: string): SendKind<LaunchPost> {
  return {
    name: "launch",
    chats,
    rows: {
      claim: (p, at) => launches.claimLaunchPost(p, holder, LAUNCH_LEASE, at),
      settle: (p, to, at, detail) => launches.settleLaunchPost(p, holder, to, at, detail),
      expire: (p, at, detail) => launches.transitionLaunchPost(p, ["queued", "interrupted"], "expired", at, detail),
    },
  };
}
