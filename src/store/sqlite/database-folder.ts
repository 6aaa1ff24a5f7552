/**
 * Creates the folder of DATABASE_PATH one level at a time. Node's recursive mkdir loops
 * forever on a virtual file system such as /proc (it keeps getting ENOENT for a parent that
 * exists), so it is not used; each level's failure becomes one sentence naming the variable
 * and what to do.
 */
import { mkdirSync, statSync, type Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { StoreError } from "../errors.js";

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function why(code: string | undefined, folder: string): string {
  switch (code) {
    case "EACCES":
    case "EPERM":
      return `permission denied: make ${dirname(folder)} writable by the user the bot runs as, or set DATABASE_PATH to a folder it can write`;
    case "EROFS":
      return "the file system is read-only: set DATABASE_PATH to a folder on a writable disk";
    case "ENOENT":
      return `${dirname(folder)} takes no new folders (a virtual file system, such as /proc): set DATABASE_PATH to a folder on disk`;
    case "ENOTDIR":
      return "part of the path is a file, not a folder: set DATABASE_PATH to a path under a folder";
    case "ENOSPC":
      return "the disk is full: free space, or set DATABASE_PATH to another disk";
    default:
      return `${code ?? "failed"}: set DATABASE_PATH to a folder the bot can write`;
  }
}

/** Makes sure the folder of the database file `path` exists. @throws StoreError "unusable". */
export function ensureDatabaseFolder(path: string): void {
  // SQLite would say only that it cannot open the file, read as a matter of permissions.
  if (statOf(path)?.isDirectory() === true) throw new StoreError("unusable", `DATABASE_PATH (${path}) is a folder: name a file in it, such as ${join(path, "chainpulse.db")}`);
  const missing: string[] = [];
  for (let folder = dirname(resolve(path)); statOf(folder) === undefined; folder = dirname(folder)) {
    missing.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EEXIST") continue;
      throw new StoreError("unusable", `DATABASE_PATH (${path}): cannot create the folder ${folder}: ${why(code, folder)}`, { cause: e });
    }
  }
}
