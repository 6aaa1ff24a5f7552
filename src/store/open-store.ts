/** The store the settings ask for: PostgreSQL when DATABASE_URL is set, else SQLite at DATABASE_PATH. */
import type { Logger } from "pino";
import { openPostgresStore } from "./postgres-store.js";
import { openSqliteStore } from "./sqlite-store.js";
import type { Store } from "./types.js";

export interface OpenStoreOptions {
  databasePath: string;
  databaseUrl: string | undefined;
  logger?: Logger;
}

/** Opens the configured database and brings it to the newest schema. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl !== undefined) return openPostgresStore({ url: options.databaseUrl, logger: options.logger });
  return openSqliteStore({ path: options.databasePath, logger: options.logger });
}
