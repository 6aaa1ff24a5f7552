import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, readdirSync } from "node:fs";
import { userInfo } from "node:os";
import { delimiter, join } from "node:path";

/**
 * The programs the tests run beside Node, and the Debian package that brings each. A fresh
 * machine has none of them; `npm test` installs what is missing before the first test file
 * (test/global-setup.ts), so the README's two commands are all a machine needs.
 */
export interface Program {
  /** What the tests run. */
  name: string;
  /** The Debian package that installs it. */
  pkg: string;
  /** Which tests need it. */
  why: string;
  /** Whether it is there, given where programs are looked for. */
  present(where: Where): boolean;
}

/** Where programs are looked for: the PATH, and the folders Debian puts PostgreSQL and Chromium in. */
export interface Where {
  path: string;
  postgresRoot: string;
  chromium: readonly string[];
}

export const DEFAULT_WHERE: Where = {
  path: process.env.PATH ?? "",
  postgresRoot: "/usr/lib/postgresql",
  chromium: ["/usr/bin/chromium"],
};

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on `path`, like `command -v`. */
export function onPath(name: string, path: string): string | undefined {
  return path
    .split(delimiter)
    .filter((dir) => dir !== "")
    .map((dir) => join(dir, name))
    .find(executable);
}

/** The newest `<root>/<version>/bin` that holds initdb (Debian keeps PostgreSQL off the PATH). */
export function postgresBinDir(root: string): string | undefined {
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root)
    .filter((v) => executable(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a))[0];
  return version === undefined ? undefined : join(root, version, "bin");
}

export const PROGRAMS: readonly Program[] = [
  { name: "redis-server", pkg: "redis-server", why: "the Redis tests", present: (w) => onPath("redis-server", w.path) !== undefined },
  {
    name: "initdb",
    pkg: "postgresql",
    why: "the PostgreSQL tests",
    present: (w) => postgresBinDir(w.postgresRoot) !== undefined || onPath("initdb", w.path) !== undefined,
  },
  { name: "script", pkg: "bsdutils", why: "the console test's pseudo-terminal", present: (w) => onPath("script", w.path) !== undefined },
  {
    name: "chromium",
    pkg: "chromium",
    why: "the operator page test",
    present: (w) => w.chromium.some(executable) || onPath("chromium", w.path) !== undefined,
  },
];

export function missingPrograms(where: Where = DEFAULT_WHERE): Program[] {
  return PROGRAMS.filter((p) => !p.present(where));
}

export interface EnsureOptions {
  where?: Where;
  /** Say what would be run instead of running it. */
  dryRun?: boolean;
  /** Where the account of what was done goes. */
  say: (line: string) => void;
}

/**
 * Installs the missing programs with apt-get, as root or through `sudo -n`, and says what it
 * did. Throws, naming the packages, when they cannot be installed from here.
 */
export function ensurePrograms(opts: EnsureOptions): { installed: string[] } {
  const where = opts.where ?? DEFAULT_WHERE;
  const missing = missingPrograms(where);
  if (missing.length === 0) return { installed: [] };
  const pkgs = [...new Set(missing.map((p) => p.pkg))];
  const reasons = missing.map((p) => `${p.name} (${p.why})`).join(", ");
  const asRoot = userInfo().uid === 0;
  const prefix = asRoot ? [] : ["sudo", "-n"];
  const commands = [
    [...prefix, "apt-get", "update", "-qq"],
    [...prefix, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "--no-install-recommends", ...pkgs],
  ];
  opts.say(`tests: missing ${reasons}; installing ${pkgs.join(" ")}`);
  if (opts.dryRun) {
    for (const c of commands) opts.say(`tests: would run: ${c.join(" ")}`);
    return { installed: [] };
  }
  const cannot = (why: string): Error =>
    new Error(`tests need ${reasons} and ${why}: install the Debian packages ${pkgs.join(" ")} (or their equivalents) and run again`);
  if (onPath("apt-get", where.path) === undefined) throw cannot("this machine has no apt-get");
  if (!asRoot && (onPath("sudo", where.path) === undefined || spawnSync("sudo", ["-n", "true"]).status !== 0)) {
    throw cannot("installing them needs root (sudo asks for a password)");
  }
  for (const [file, ...args] of commands) {
    opts.say(`tests: ${[file, ...args].join(" ")}`);
    const r = spawnSync(file as string, args, { stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0) throw cannot(`\`${[file, ...args].join(" ")}\` failed (${r.error?.message ?? `exit ${r.status}`})`);
  }
  const still = missingPrograms(where);
  if (still.length > 0) throw cannot(`they are still missing after apt-get (${still.map((p) => p.name).join(", ")})`);
  opts.say(`tests: installed ${pkgs.join(" ")}`);
  return { installed: pkgs };
}
