import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../src/store/postgres/store.js";
import { openSqliteStore } from "../../src/store/sqlite/store.js";
import { migrations } from "../../src/store/migrations.js";
import { startPostgres, type PostgresEngine } from "../engines/postgres.js";
import { freePort } from "../engines/free-port.js";
import { runMain } from "../run-main.js";
import { binArgs } from "../bin.js";
import { until } from "../process/until.js";

const LATEST = migrations.at(-1)?.version;

// An empty folder as the working directory, so no developer's .env leaks into the run.
const cwd = mkdtempSync(join(tmpdir(), "chainpulse-store-cli-"));
chmodSync(cwd, 0o755);

/**
 * Bound on one run of the binary. A run takes a second or two of CPU; with two suites beside a
 * busy core two of them in one test took over 30 s. Only a broken run should reach it.
 */
const PROCESS_MS = 90_000;
/** Bound on a test: up to two runs and a database. */
const TEST_MS = 2 * PROCESS_MS + 20_000;

/**
 * The real binary: for `start`, which may not run in the test process, for `ask`, whose whole
 * wiring costs more to load into vitest than a Node start, and for the store commands' exit codes.
 */
function spawned(args: string[], env: Record<string, string> = {}, asUser?: string) {
  const node = [process.execPath, ...binArgs(...args)];
  const command = asUser === undefined ? node : ["runuser", "-u", asUser, "--", ...node];
  const result = spawnSync(command[0]!, command.slice(1), {
    cwd,
    env: { PATH: process.env.PATH ?? "", LOG_LEVEL: "silent", ...env },
    encoding: "utf8",
    timeout: PROCESS_MS,
    input: "",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, timedOut: result.error !== undefined };
}

/** The same command through `main` in this process. */
const run = (args: string[], env: Record<string, string> = {}) => runMain(args, { LOG_LEVEL: "silent", ...env }, cwd);

const lines = (text: string) => text.split("\n").filter((l) => l !== "");

let engine: PostgresEngine;
beforeAll(async () => {
  engine = await startPostgres();
});
afterAll(async () => {
  await engine.destroy();
  rmSync(cwd, { recursive: true, force: true });
});

describe("start-up errors about DATABASE_PATH", { timeout: TEST_MS }, () => {
  it("names DATABASE_PATH in one line when the file is not a database", () => {
    const file = join(cwd, "corrupt.db");
    writeFileSync(file, "this is not a database ".repeat(500));
    const { code, stderr } = spawned(["start"], { DATABASE_PATH: file });
    expect(code).toBe(1);
    expect(lines(stderr)).toEqual([
      `chainpulse: the database at DATABASE_PATH (${file}) is not a SQLite database or is damaged (file is not a database): restore it from a backup, or move it away to start afresh`,
    ]);
  });

  it("says DATABASE_PATH names a folder, not that the file cannot be written", () => {
    const folder = join(cwd, "a-folder.db");
    mkdirSync(folder, { recursive: true });
    const { code, stderr } = spawned(["start"], { DATABASE_PATH: folder });
    expect(code).toBe(1);
    expect(lines(stderr)).toEqual([`chainpulse: DATABASE_PATH (${folder}) is a folder: name a file in it, such as ${join(folder, "chainpulse.db")}`]);
  });

  it("stops at once with one line for a path under /proc instead of spinning", () => {
    const { code, stderr, timedOut } = spawned(["start"], { DATABASE_PATH: "/proc/chainpulse/data/chainpulse.db" });
    expect(timedOut).toBe(false);
    expect(code).toBe(1);
    expect(lines(stderr)).toEqual([
      "chainpulse: DATABASE_PATH (/proc/chainpulse/data/chainpulse.db): cannot create the folder /proc/chainpulse: /proc takes no new folders (a virtual file system, such as /proc): set DATABASE_PATH to a folder on disk",
    ]);
  });

  it("names DATABASE_PATH and the fix when its folder may not be created", () => {
    // Root may write anywhere: then the bot runs as nobody, for whom the folder is read-only.
    const asRoot = userInfo().uid === 0;
    const locked = mkdtempSync(join(tmpdir(), "chainpulse-locked-"));
    chmodSync(locked, asRoot ? 0o755 : 0o555);
    try {
      const { code, stderr } = spawned(["start"], { DATABASE_PATH: join(locked, "data", "chainpulse.db") }, asRoot ? "nobody" : undefined);
      expect(code).toBe(1);
      expect(lines(stderr)).toEqual([
        `chainpulse: DATABASE_PATH (${join(locked, "data", "chainpulse.db")}): cannot create the folder ${join(locked, "data")}: permission denied: make ${locked} writable by the user the bot runs as, or set DATABASE_PATH to a folder it can write`,
      ]);
    } finally {
      rmSync(locked, { recursive: true, force: true });
    }
  });
});

describe("a read-only database at start", { timeout: TEST_MS }, () => {
  it("stops the start with one line naming DATABASE_PATH and the fix", async () => {
    // Root may write anywhere: then the bot runs as nobody, for whom the file is read-only.
    const asRoot = userInfo().uid === 0;
    const folder = mkdtempSync(join(tmpdir(), "chainpulse-readonly-"));
    const file = join(folder, "chainpulse.db");
    await (await openSqliteStore({ path: file })).close();
    chmodSync(file, 0o444);
    chmodSync(folder, 0o555);
    try {
      const { code, stderr } = spawned(["start"], { DATABASE_PATH: file }, asRoot ? "nobody" : undefined);
      expect(code).toBe(1);
      expect(lines(stderr)).toEqual([
        `chainpulse: the database at DATABASE_PATH (${file}) cannot be written (attempt to write a readonly database): make the file and its folder writable by the user the bot runs as`,
      ]);
    } finally {
      chmodSync(folder, 0o755);
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("the bot on DATABASE_URL", { timeout: TEST_MS }, () => {
  it("keeps a chat's settings in PostgreSQL, where the next run reads them", async () => {
    const url = await engine.createDatabase("bot_settings");
    const saved = spawned(["ask", "/settings chain bsc"], { DATABASE_URL: url });
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain("Saved: default chain bsc");
    expect(spawned(["ask", "/settings"], { DATABASE_URL: url }).stdout).toMatch(/Default chain\s+bsc/);
    const pg = await openPostgresStore({ url });
    try {
      expect(await pg.getSettings({ platform: "console", chatId: "console" })).toMatchObject({ defaultChain: "bsc" });
    } finally {
      await pg.close();
    }
  });

  it("stops the start with one line naming DATABASE_URL when PostgreSQL cannot be reached, never its password", async () => {
    const port = await freePort();
    const { code, stderr } = spawned(["start"], { DATABASE_URL: `postgres://bot:hunter2@127.0.0.1:${port}/chainpulse` });
    expect(code).toBe(1);
    expect(lines(stderr)).toEqual([`chainpulse: the PostgreSQL database at DATABASE_URL (127.0.0.1:${port}/chainpulse) cannot be reached: connect ECONNREFUSED 127.0.0.1:${port}`]);
  });
});

/**
 * The engine's server asks the role `locked` for its password (SCRAM) and trusts every other,
 * and waits 10 minutes for a login to finish: a client that leaves a failed login's socket
 * open holds its process that long.
 */
async function lockRole(): Promise<void> {
  const admin = new pg.Client({ connectionString: engine.url });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${LOCKED} LOGIN SUPERUSER PASSWORD '${LOCKED_PASSWORD}'`);
    const { rows } = await admin.query<{ hba_file: string }>("SHOW hba_file");
    const rules = ["local all all trust", `host all ${LOCKED} 127.0.0.1/32 scram-sha-256`, "host all all 127.0.0.1/32 trust"];
    // COPY takes no parameters; the rules hold no quote.
    await admin.query(`COPY (SELECT unnest(ARRAY['${rules.join("', '")}'])) TO '${rows[0]!.hba_file}'`);
    await admin.query("ALTER SYSTEM SET authentication_timeout = '10min'");
    await admin.query("SELECT pg_reload_conf()");
  } finally {
    await admin.end();
  }
  // The server reloads its rules after the call returns: asked until a wrong password is refused.
  await until(async () => {
    const probe = new pg.Client({ connectionString: lockedUrl("postgres", "wrong") });
    try {
      await probe.connect();
      await probe.end();
      return false;
    } catch {
      return true;
    }
  }, "the server asks the locked role for its password");
}

const LOCKED = "locked";
const LOCKED_PASSWORD = "right-horse-battery";
const lockedUrl = (db: string, password?: string) => `postgres://${LOCKED}${password === undefined ? "" : `:${password}`}@127.0.0.1:${engine.port}/${db}`;

describe("a PostgreSQL server that refuses the login or lacks the database", { timeout: TEST_MS }, () => {
  beforeAll(lockRole);

  const refused = (source: string, db: string, why: string) =>
    `chainpulse: the PostgreSQL database at ${source} (127.0.0.1:${engine.port}/${db}) cannot be used: ${why}; check the user, password and database name in ${source}`;

  it("store migrate gives one line naming DATABASE_URL and 78 for a database that does not exist", async () => {
    const { code, stderr } = await run(["store", "migrate"], { DATABASE_URL: `postgres://postgres@127.0.0.1:${engine.port}/absent` });
    expect(lines(stderr)).toEqual([refused("DATABASE_URL", "absent", 'database "absent" does not exist')]);
    expect(code).toBe(78);
  });

  it("store migrate gives one line and 78 for a role that does not exist and for a wrong password, never printing it", async () => {
    const ghost = await run(["store", "migrate"], { DATABASE_URL: `postgres://ghost:hunter2@127.0.0.1:${engine.port}/postgres` });
    expect(lines(ghost.stderr)).toEqual([refused("DATABASE_URL", "postgres", 'role "ghost" does not exist')]);
    expect(ghost.code).toBe(78);
    const wrong = await run(["store", "migrate"], { DATABASE_URL: lockedUrl("postgres", "hunter2") });
    expect(lines(wrong.stderr)).toEqual([refused("DATABASE_URL", "postgres", `password authentication failed for user "${LOCKED}"`)]);
    expect(wrong.code).toBe(78);
  });

  it("store migrate without the password the server asks for says so in one line and exits 78 at once", () => {
    const { code, stderr, timedOut } = spawned(["store", "migrate"], { DATABASE_URL: lockedUrl("postgres") });
    expect(timedOut).toBe(false);
    expect(lines(stderr)).toEqual([
      `chainpulse: the PostgreSQL database at DATABASE_URL (127.0.0.1:${engine.port}/postgres) cannot be used: the server asks for a password and DATABASE_URL has none; add it (postgres://user:password@host:5432/db)`,
    ]);
    expect(code).toBe(78);
  });

  it("store copy names --to, with 78, when the database to copy into does not exist", async () => {
    const dbPath = join(cwd, "copy-refused.db");
    expect((await run(["store", "migrate"], { DATABASE_PATH: dbPath })).code).toBe(0);
    const { code, stderr } = await run(["store", "copy", "--to", `postgres://postgres:hunter2@127.0.0.1:${engine.port}/absent`], { DATABASE_PATH: dbPath });
    expect(lines(stderr)).toEqual([refused("--to", "absent", 'database "absent" does not exist')]);
    expect(code).toBe(78);
  });

  it("start stops with one line naming DATABASE_URL for a database that does not exist, and at once without the password", () => {
    const absent = spawned(["start"], { DATABASE_URL: `postgres://postgres@127.0.0.1:${engine.port}/absent` });
    expect(lines(absent.stderr)).toEqual([refused("DATABASE_URL", "absent", 'database "absent" does not exist')]);
    expect(absent.code).toBe(1);
    const bare = spawned(["start"], { DATABASE_URL: lockedUrl("postgres") });
    expect(bare.timedOut).toBe(false);
    expect(lines(bare.stderr)).toHaveLength(1);
    expect(bare.stderr).toContain("the server asks for a password and DATABASE_URL has none");
    expect(bare.code).toBe(1);
  });

  it("store migrate gives one line and 78 when its user may not create the tables", async () => {
    const url = await engine.createDatabase("not_mine");
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("CREATE ROLE visitor LOGIN");
    await admin.query("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
    await admin.end();
    const { code, stderr } = await run(["store", "migrate"], { DATABASE_URL: `postgres://visitor@127.0.0.1:${engine.port}/not_mine` });
    expect(lines(stderr)).toEqual([
      `chainpulse: the PostgreSQL database at DATABASE_URL (127.0.0.1:${engine.port}/not_mine) cannot be used: permission denied for schema public; grant the user in DATABASE_URL the rights on that database`,
    ]);
    expect(code).toBe(78);
  });

  /** A database at the newest schema that also records a migration from a newer chainpulse. */
  async function newerSchema(name: string): Promise<string> {
    const url = await engine.createDatabase(name);
    await (await openPostgresStore({ url })).close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from the future', '2030-01-01T00:00:00Z')");
    await admin.end();
    return url;
  }

  it("store migrate gives one line and 78 for a database written by a newer chainpulse", async () => {
    const url = await newerSchema("newer_schema");
    const { code, stderr } = await run(["store", "migrate"], { DATABASE_URL: url });
    expect(lines(stderr)).toEqual([
      `chainpulse: the PostgreSQL database at DATABASE_URL (127.0.0.1:${engine.port}/newer_schema) cannot be used: the database has schema version 9999, which this build does not know: it was written by a newer chainpulse`,
    ]);
    expect(code).toBe(78);
  });

  it("store copy names --to, with 78, when the database to copy into was written by a newer chainpulse", async () => {
    const url = await newerSchema("newer_target");
    const dbPath = join(cwd, "copy-newer.db");
    expect((await run(["store", "migrate"], { DATABASE_PATH: dbPath })).code).toBe(0);
    const { code, stderr } = await run(["store", "copy", "--to", url], { DATABASE_PATH: dbPath });
    expect(lines(stderr)).toEqual([
      `chainpulse: the PostgreSQL database at --to (127.0.0.1:${engine.port}/newer_target) cannot be used: the database has schema version 9999, which this build does not know: it was written by a newer chainpulse`,
    ]);
    expect(code).toBe(78);
  });
});

describe("chainpulse store migrate", { timeout: TEST_MS }, () => {
  it("gives one line naming DATABASE_PATH and 78 for an SQLite file written by a newer chainpulse", async () => {
    const file = join(cwd, "newer.db");
    const store = await openSqliteStore({ path: file });
    store.db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, 'from the future', '2030-01-01T00:00:00Z')").run();
    await store.close();
    const { code, stderr } = spawned(["store", "migrate"], { DATABASE_PATH: file });
    expect(lines(stderr)).toEqual([
      `chainpulse: the database at DATABASE_PATH (${file}) cannot be used: the database has schema version 9999, which this build does not know: it was written by a newer chainpulse`,
    ]);
    expect(code).toBe(78);
  });

  it("brings an SQLite file to the newest schema once and then has nothing to do", async () => {
    const file = join(cwd, "migrate.db");
    const first = spawned(["store", "migrate"], { DATABASE_PATH: file });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Applied ${migrations.length} migrations to the database at DATABASE_PATH (${file}) (1 chats, 2 `);
    expect(first.stdout).toContain(`it is at schema version ${LATEST}.`);
    const again = await run(["store", "migrate"], { DATABASE_PATH: file });
    expect(again.code).toBe(0);
    expect(lines(again.stdout)).toEqual([`The database at DATABASE_PATH (${file}) is at schema version ${LATEST} already; nothing to apply.`]);
  });

  it("migrates PostgreSQL when DATABASE_URL is set, never printing its password", async () => {
    const url = (await engine.createDatabase("migrate_me")).replace("postgres@", "postgres:hunter2@");
    const { code, stdout, stderr } = await run(["store", "migrate"], { DATABASE_URL: url });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain(`to the database at DATABASE_URL (127.0.0.1:${engine.port}/migrate_me)`);
    expect(stdout).not.toContain("hunter2");
  });

  it("gives one line and 78 when PostgreSQL cannot be reached", async () => {
    const port = await freePort();
    const { code, stderr } = spawned(["store", "migrate"], { DATABASE_URL: `postgres://bot:hunter2@127.0.0.1:${port}/nowhere` });
    expect(code).toBe(78);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toContain(`chainpulse: the PostgreSQL database at DATABASE_URL (127.0.0.1:${port}/nowhere) cannot be reached`);
    expect(stderr).not.toContain("hunter2");
  });

  it("names --to, not DATABASE_URL, when the database to copy into cannot be reached", async () => {
    const dbPath = join(cwd, "copy-source.db");
    expect((await run(["store", "migrate"], { DATABASE_PATH: dbPath })).code).toBe(0);
    const port = await freePort();
    const { code, stderr } = await run(["store", "copy", "--to", `postgres://bot:hunter2@127.0.0.1:${port}/target`], { DATABASE_PATH: dbPath });
    expect(code).toBe(78);
    expect(lines(stderr)).toHaveLength(1);
    expect(stderr).toContain(`chainpulse: the PostgreSQL database at --to (127.0.0.1:${port}/target) cannot be reached`);
    expect(stderr).not.toContain("hunter2");
  });

  it("refuses a DATABASE_URL that is not postgres:// as a configuration error", async () => {
    const { code, stderr } = await run(["store", "migrate"], { DATABASE_URL: "mysql://localhost/x" });
    expect(code).toBe(78);
    expect(lines(stderr)).toEqual([
      'chainpulse: DATABASE_URL must be a postgres:// URL such as postgres://chainpulse:password@localhost:5432/chainpulse, got "mysql://localhost/x"',
    ]);
  });

  it("names both store commands after store --help, with exit 0", async () => {
    const { code, stdout } = await run(["store", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: chainpulse store migrate");
    expect(stdout).toContain("chainpulse store copy --to <postgres url>");
    expect(stdout).toContain("`chainpulse store <command> --help` shows a command's options");
    expect((await run(["store", "copy", "--help"])).stdout).toContain("Usage: chainpulse store copy --to <postgres url>");
  });

  it("refuses arguments with exit 2", async () => {
    expect(spawned(["store", "migrate", "now"]).code).toBe(2);
    expect((await run(["store"])).code).toBe(2);
    expect((await run(["store", "frobnicate"])).code).toBe(2);
  });
});

describe("chainpulse store copy", { timeout: TEST_MS }, () => {
  it("copies an SQLite install into PostgreSQL, says what it copied, copies nothing the second time, and the bot reads it there", async () => {
    const file = join(cwd, "install.db");
    const chat = { platform: "telegram" as const, chatId: "-100500" };
    const sqlite = await openSqliteStore({ path: file });
    await sqlite.updateSettings(chat, { defaultChain: "bsc", timezone: "Asia/Tokyo" });
    const sub = await sqlite.subscriptions.upsertSubscription(
      { ...chat, chain: "solana", cron: "0 * * * *", timezone: "UTC", label: "every 1h", intervalMinutes: 60, topN: 10 },
      1_000,
    );
    await sqlite.subscriptions.queueDeliveries(60_000, [sub.id], 1_000);
    await sqlite.watchlists.addWatched(chat, [{ tokenId: "pepe-eth", symbol: "PEPE", chain: "eth" }], 50, 1_000);
    await sqlite.close();
    const url = await engine.createDatabase("copy_target");

    const first = await run(["store", "copy", "--to", url], { DATABASE_PATH: file });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(lines(first.stdout)[0]).toBe(`Copied 4 of 4 rows from DATABASE_PATH (${file}) to PostgreSQL at 127.0.0.1:${engine.port}/copy_target; 0 were there already.`);
    expect(lines(first.stdout)).toContain("  subscriptions: 1 copied, 0 already there");

    const second = await run(["store", "copy", "--to", url], { DATABASE_PATH: file });
    expect(second.code).toBe(0);
    expect(lines(second.stdout)[0]).toBe(`Copied 0 of 4 rows from DATABASE_PATH (${file}) to PostgreSQL at 127.0.0.1:${engine.port}/copy_target; 4 were there already.`);

    const pg = await openPostgresStore({ url });
    try {
      expect(await pg.getSettings(chat)).toEqual({ defaultChain: "bsc", timezone: "Asia/Tokyo" });
      expect((await pg.subscriptions.queuedDeliveries()).map((d) => d.subscription.chain)).toEqual(["solana"]);
      expect((await pg.watchlists.listWatched(chat)).map((w) => w.tokenId)).toEqual(["pepe-eth"]);
      // New rows get ids after the copied ones.
      const next = await pg.subscriptions.upsertSubscription(
        { ...chat, chain: "eth", cron: "0 * * * *", timezone: "UTC", label: "every 1h", intervalMinutes: 60, topN: 10 },
        2_000,
      );
      expect(next.id).toBeGreaterThan(sub.id);
    } finally {
      await pg.close();
    }
  });

  it("merges alerts into a PostgreSQL whose chat has alerts of its own: conflicts reported, counter past them, twice harmless", async () => {
    const file = join(cwd, "alerts-install.db");
    const chat = { platform: "telegram" as const, chatId: "-100600" };
    const alert = (tokenId: string, at: number) => ({ ...chat, tokenId, symbol: tokenId.slice(0, 4).toUpperCase(), chain: "eth", rule: "above" as const, level: "2", anchorPrice: "1", anchorAt: at });
    const sqlite = await openSqliteStore({ path: file });
    for (const [i, token] of ["pepe-eth", "wif-solana", "bonk-solana"].entries()) await sqlite.alerts.addAlert(alert(token, 1_000 + i), 20, 1_000 + i);
    const fired = (await sqlite.alerts.listAlerts(chat))[1]!;
    await sqlite.alerts.commitCheck([], [{ alertId: fired.id, anchorAt: fired.anchorAt, set: { armed: false, lastFiredAt: 5_000 }, notice: { kind: "fired", payload: "{\"number\":2}" } }], 5_000);
    await sqlite.close();
    const url = await engine.createDatabase("copy_merge");
    const pg = await openPostgresStore({ url });
    try {
      for (const [i, token] of ["eth-eth", "sol-solana"].entries()) await pg.alerts.addAlert(alert(token, 9_000 + i), 20, 9_000 + i);

      const first = await run(["store", "copy", "--to", url], { DATABASE_PATH: file });
      expect(first.code).toBe(0);
      expect(lines(first.stdout)).toEqual(expect.arrayContaining([
        "  alerts: 3 copied, 0 already there",
        "  alert #1 of telegram chat -100600 is #3 now: another alert of that chat had #1 in PostgreSQL",
        "  alert #2 of telegram chat -100600 is #4 now: another alert of that chat had #2 in PostgreSQL",
        "  alert #3 of telegram chat -100600 is #5 now: another alert of that chat had #3 in PostgreSQL",
      ]));
      const second = await run(["store", "copy", "--to", url], { DATABASE_PATH: file });
      expect(second.code).toBe(0);
      expect(lines(second.stdout)).toEqual(expect.arrayContaining(["  alerts: 0 copied, 3 already there", "  alert_firings: 0 copied, 1 already there"]));
      expect(lines(second.stdout).some((l) => l.includes(" is #"))).toBe(false);

      const listed = await pg.alerts.listAlerts(chat);
      expect(listed.map((a) => [a.number, a.tokenId])).toEqual([[1, "eth-eth"], [2, "sol-solana"], [3, "pepe-eth"], [4, "wif-solana"], [5, "bonk-solana"]]);
      const firings = await pg.alerts.queuedFirings();
      expect(firings.map((f) => f.alertId)).toEqual([listed[3]!.id]);
      // The next /alert of the chat takes #6, not a copied number.
      const next = await pg.alerts.addAlert(alert("link-eth", 20_000), 20, 20_000);
      expect("alert" in next && next.alert.number).toBe(6);
    } finally {
      await pg.close();
    }
  });

  it("says there is nothing to copy when DATABASE_PATH has no file, with 78", async () => {
    const { code, stderr } = await run(["store", "copy", "--to", await engine.createDatabase()], { DATABASE_PATH: join(cwd, "missing.db") });
    expect(code).toBe(78);
    expect(lines(stderr)).toEqual([
      `chainpulse: there is no SQLite database at DATABASE_PATH (${join(cwd, "missing.db")}) to copy; set DATABASE_PATH to the file the bot used`,
    ]);
  });

  it("wants --to and a postgres:// URL, with exit 2", async () => {
    const missing = await run(["store", "copy"]);
    expect(missing.code).toBe(2);
    expect(lines(missing.stderr)[0]).toBe("chainpulse store copy: --to is required: the PostgreSQL URL to copy into");
    const wrong = await run(["store", "copy", "--to", "redis://localhost"]);
    expect(wrong.code).toBe(2);
    expect(lines(wrong.stderr)[0]).toContain("--to must be a postgres:// URL");
  });
});
