import fs from "node:fs";
import path from "node:path";
import { EmbeddedPgError } from "./errors.ts";

export const LOCK_FILE = "embedded-pg.lock";

/** True when a process with this pid exists (EPERM: exists but belongs to someone else). */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readLockPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8").trim(), 10);
    return Number.isNaN(pid) ? undefined : pid;
  } catch {
    return undefined;
  }
}

/**
 * Takes `<dataDir>/embedded-pg.lock` (holding our pid) atomically, so that two processes never
 * open the same data dir. A lock whose pid is no longer running (killed server) is taken over.
 * Returns the release function.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const file = path.join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = fs.openSync(file, "wx");
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw notWritable(dataDir, e);
      const pid = readLockPid(file);
      if (pid !== undefined && pidAlive(pid)) {
        throw new EmbeddedPgError(
          "ELOCKED",
          `data dir ${dataDir} is in use by another embedded server (pid ${pid}): stop it or pass another --data-dir`,
        );
      }
      // Stale (killed process) or half-written lock: remove it and try again.
      try {
        fs.unlinkSync(file);
      } catch (unlinkErr) {
        if ((unlinkErr as NodeJS.ErrnoException).code !== "ENOENT") throw notWritable(dataDir, unlinkErr);
      }
      continue;
    }
    fs.writeSync(fd, `${process.pid}\n`);
    fs.closeSync(fd);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (readLockPid(file) === process.pid) fs.rmSync(file, { force: true });
    };
  }
  throw new EmbeddedPgError("ELOCKED", `data dir ${dataDir}: could not take its lock file ${file}`);
}

export function notWritable(dataDir: string, cause: unknown): EmbeddedPgError {
  const reason = (cause as NodeJS.ErrnoException)?.code ?? String(cause);
  return new EmbeddedPgError("EDATADIR", `data dir ${dataDir} is not writable (${reason}): pass a writable --data-dir`);
}

/** Creates the data dir and checks that we can write in it. */
export function ensureWritableDir(dataDir: string): void {
  try {
    fs.mkdirSync(dataDir, { recursive: true });
    fs.accessSync(dataDir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (e) {
    throw notWritable(dataDir, e);
  }
}
