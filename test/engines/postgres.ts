import { execFile, type ExecFileOptions } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./free-port.js";
import { DEFAULT_WHERE, postgresBinDir } from "./programs.js";

/**
 * A throw-away PostgreSQL cluster in a temporary folder on a free loopback port, with trust
 * authentication and fsync off. PostgreSQL refuses to run as root, and tests run as root in
 * CI, so the cluster then belongs to the unprivileged `postgres` (or `nobody`) user and its
 * programs run through `runuser`. `initdb` runs once per machine into a template folder;
 * each engine starts from a copy of it, which takes a fraction of a second.
 */
export interface PostgresEngine {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: the maintenance database. */
  readonly url: string;
  readonly port: number;
  /** Whether the server is running now. */
  readonly running: boolean;
  /** Creates an empty database (a fresh name unless given) and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Starts the server again on the same port and data after `stop` (a no-op while running). */
  start(): Promise<void>;
  /** Stops the server at once (immediate mode: connections cut, the way a crash looks). */
  stop(): Promise<void>;
  /**
   * Freezes the server (SIGSTOP to it and its backends): connections stay open but nothing is
   * answered, the way a network cut looks. `resume` thaws it.
   */
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Stops the server and deletes its folder. Call it in `afterAll`. */
  destroy(): Promise<void>;
}

const SUPERUSER = "postgres";
const START_ATTEMPTS = 5;

/** The folder of initdb/pg_ctl: the newest /usr/lib/postgresql/<n>/bin, else whatever PATH has. */
function binDir(): string | undefined {
  return postgresBinDir(DEFAULT_WHERE.postgresRoot);
}

/** Set when running as root: the account that owns the cluster and runs its programs. */
let accountForPrograms: { name: string; uid: number; gid: number } | undefined;

/** Runs a PostgreSQL program (initdb, pg_ctl) as the cluster's account. */
function pgRun(program: string, args: readonly string[]): Promise<string> {
  const bin = binDir();
  return run(bin === undefined ? program : join(bin, program), args);
}

/** Runs `path` as the cluster's account. */
function run(path: string, args: readonly string[], options: ExecFileOptions = {}): Promise<string> {
  const program = path.split("/").pop() ?? path;
  const user = accountForPrograms;
  const [file, argv] = user === undefined ? [path, args] : ["runuser", ["-u", user.name, "--", path, ...args]];
  return new Promise((resolve, reject) => {
    execFile(file, argv as string[], { ...options, encoding: "utf8" }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${program} failed: ${String(stderr).trim() || err.message}`));
      else resolve(String(stdout));
    });
  });
}

async function lookUpAccount(): Promise<void> {
  if (userInfo().uid !== 0) return;
  for (const name of ["postgres", "nobody"]) {
    const uid = await idOf(name, "-u");
    const gid = await idOf(name, "-g");
    if (uid !== undefined && gid !== undefined) {
      accountForPrograms = { name, uid, gid };
      return;
    }
  }
  throw new Error("tests run as root and there is no postgres or nobody user to run PostgreSQL as");
}

function idOf(name: string, flag: "-u" | "-g"): Promise<number | undefined> {
  return new Promise((resolve) => execFile("id", [flag, name], (err, out) => resolve(err ? undefined : Number(out.trim()))));
}

function own(path: string): void {
  if (accountForPrograms !== undefined) chownSync(path, accountForPrograms.uid, accountForPrograms.gid);
}

/** A folder the cluster user may write, under the system's temporary folder. */
function ownedTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  own(dir);
  return dir;
}

/** The initdb'd template, made once per machine and user (an atomic rename settles a race). */
async function template(): Promise<string> {
  // Named by the server's version too: a template from another major version would not start.
  const version = binDir()?.split("/").at(-2) ?? "path";
  const target = join(tmpdir(), `chainpulse-pg-template-${version}-${accountForPrograms?.name ?? userInfo().username}`);
  if (existsSync(join(target, "PG_VERSION"))) return target;
  const scratch = ownedTempDir("chainpulse-pg-initdb-");
  const data = join(scratch, "data");
  await pgRun("initdb", ["-D", data, "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
  try {
    renameSync(data, target);
  } catch {
    // Another test file made it first; theirs is as good.
  }
  rmSync(scratch, { recursive: true, force: true });
  return target;
}

async function copyTemplate(into: string): Promise<void> {
  const source = await template();
  await run("cp", ["-a", `${source}/.`, into]);
}

export async function startPostgres(): Promise<PostgresEngine> {
  await lookUpAccount();
  const root = ownedTempDir("chainpulse-pg-");
  const data = join(root, "data");
  const socketDir = join(root, "socket");
  await run("mkdir", ["-m", "700", data, socketDir]);
  await copyTemplate(data);

  const launch = (port: number): Promise<string> =>
    pgRun("pg_ctl", [
      "-D", data, "-l", join(root, "log"), "-w", "-t", "60",
      "-o", `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`,
      "start",
    ]);

  let port = 0;
  let lastError: unknown;
  for (let attempt = 0; attempt < START_ATTEMPTS && port === 0; attempt += 1) {
    const candidate = await freePort();
    try {
      await launch(candidate);
      port = candidate;
    } catch (err) {
      lastError = err;
    }
  }
  if (port === 0) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${String(lastError)}`);
  }
  live.add(data);

  let running = true;
  let databases = 0;
  const url = (db: string): string => `postgres://${SUPERUSER}@127.0.0.1:${port}/${db}`;
  const stop = async (): Promise<void> => {
    if (!running) return;
    running = false;
    await pgRun("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
  };
  const resume = async (): Promise<void> => {
    for (const pid of await clusterPids(data)) {
      try {
        process.kill(pid, "SIGCONT");
      } catch (err) {
        // A backend whose client just went away may exit between the listing and the signal.
        if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
      }
    }
  };
  return {
    url: url("postgres"),
    port,
    get running() {
      return running;
    },
    async createDatabase(name) {
      databases += 1;
      const db = name ?? `test_${process.pid}_${databases}`;
      const client = new pg.Client({ connectionString: url("postgres") });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${db.replaceAll('"', '""')}"`);
      } finally {
        await client.end();
      }
      return url(db);
    },
    async start() {
      if (running) return;
      await launch(port);
      running = true;
    },
    stop,
    async pause() {
      for (const pid of await clusterPids(data)) process.kill(pid, "SIGSTOP");
    },
    resume,
    async destroy() {
      if (running) await resume();
      await stop();
      live.delete(data);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Clusters still running when the test process exits are stopped, so none outlives its run. */
const live = new Set<string>();
process.once("exit", () => {
  for (const data of live) {
    try {
      const pid = Number(readPid(data));
      if (pid > 0) process.kill(pid, "SIGQUIT");
    } catch {
      // Already gone.
    }
  }
});

/** The postmaster of the cluster in `data` and its children (backends, background workers). */
async function clusterPids(data: string): Promise<number[]> {
  const postmaster = Number(readPid(data));
  const children = await new Promise<string>((resolve) =>
    execFile("ps", ["-o", "pid=", "--ppid", String(postmaster)], (_err, out) => resolve(String(out))),
  );
  return [postmaster, ...children.split("\n").map((l) => Number(l.trim())).filter((n) => n > 0)];
}

function readPid(data: string): string {
  return (readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0] ?? "").trim();
}
