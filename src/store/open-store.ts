/** The store the settings ask for: PostgreSQL when DATABASE_URL is set, else SQLite at DATABASE_PATH. */
import type { Logger } from "pino";
import { openSqliteStore } from "./sqlite/store.js";
import type { Store } from "./types.js";

export interface OpenStoreOptions {
  databasePath: string;
  databaseUrl: string | undefined;
  logger?: Logger;
}

/** Opens the configured database and brings it to the newest schema. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  // Loaded only when asked for: pg costs every SQLite process start a tenth of a second.
  if (options.databaseUrl !== undefined) {
    const { openPostgresStore } = await import("./postgres/store.js");
    return openPostgresStore({ url: options.databaseUrl, logger: options.logger });
  }
  return openSqliteStore({ path: options.databasePath, logger: options.logger });
}
