import { closeSync, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, realpathSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { ToolsimError } from "../../specs/toolsim-error.js";

/** The lock file inside a locked folder (run folder, toolset build folder). */
export const LOCK_FILE = ".toolsim.lock";

/** What a lock file says about its holder. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** When the holder took the lock (ISO time). */
  startedAt: string;
  /** What the holder is doing (`generate`, `replay --out`, `toolset build`). */
  command: string;
  /** The holder process's start time in clock ticks since boot (Linux `/proc/<pid>/stat`), to tell a reused pid. */
  processStart?: number;
}

/** A lock held by this process; `release` is idempotent. */
export interface RunLock {
  readonly dir: string;
  readonly path: string;
  release(): void;
}

interface Held {
  path: string;
  /** The lock file's inode, to release only our own file. */
  ino: number;
  count: number;
  /** The folder was made for this lock: removed on release when nothing else was written to it. */
  madeDir?: string;
}

/** Locks this process holds, by real folder path (re-entrant: a command and its run store share one). */
const held = new Map<string, Held>();
let exitHookInstalled = false;

/** A process's state letter and start time in clock ticks since boot (`/proc/<pid>/stat`), when readable (Linux). */
function procStat(pid: number): { state: string; start: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const start = Number(fields[19]);
    return Number.isFinite(start) ? { state: fields[0] ?? "?", start } : undefined;
  } catch {
    return undefined;
  }
}

function processStartOf(pid: number): number | undefined {
  return procStat(pid)?.start;
}

/** Whether the process that wrote a lock file on this host is gone (or its pid now belongs to another process). */
function holderIsDead(holder: LockHolder): boolean {
  // Our own pid on a lock this process does not hold: a dead process had it before us (pid reuse, containers).
  if (holder.pid === process.pid && holder.processStart === undefined) return true;
  try {
    process.kill(holder.pid, 0);
  } catch (e) {
    // EPERM: alive, owned by another user.
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
  const now = procStat(holder.pid);
  if (now === undefined) return false;
  // A zombie (killed, not yet reaped) is dead; a pid whose start time changed belongs to another process now.
  if (now.state === "Z" || now.state === "X") return true;
  return holder.processStart !== undefined && now.start !== holder.processStart;
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (typeof h.pid === "number" && Number.isInteger(h.pid) && h.pid > 0 && typeof h.hostname === "string") {
      return { pid: h.pid, hostname: h.hostname, startedAt: String(h.startedAt ?? "?"), command: String(h.command ?? "toolsim"), ...(typeof h.processStart === "number" ? { processStart: h.processStart } : {}) };
    }
  } catch {
    // fall through: not a lock we wrote (or one cut short)
  }
  return undefined;
}

/** Reads the lock file through an open descriptor: its holder and inode (undefined: there is none). */
function readLock(path: string): { holder: LockHolder | undefined; ino: number; mtimeMs: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  try {
    const st = fstatSync(fd);
    const buf = Buffer.alloc(Math.min(st.size, 4096));
    const n = st.size > 0 ? readSync(fd, buf, 0, buf.length, 0) : 0;
    return { holder: parseHolder(buf.toString("utf8", 0, n)), ino: st.ino, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** A lock file that cannot be parsed is taken over only once it is this old (a writer cut short, not one writing). */
const UNREADABLE_GRACE_MS = 10_000;

/**
 * Moves away a stale lock file, but only the very file judged stale (same inode): of two processes taking over
 * the same stale lock at once, the second finds the first one's fresh lock and puts it back.
 */
function takeOver(path: string, staleIno: number): void {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw e;
  }
  if (statSync(aside).ino === staleIno) {
    unlinkSync(aside);
    return;
  }
  // Someone else's live lock: put it back (link fails if yet another process locked in between; theirs stands).
  try {
    linkSync(aside, path);
  } catch {
    // keep theirs
  }
  unlinkSync(aside);
}

function describeHolder(h: LockHolder): string {
  return `pid ${h.pid} on ${h.hostname}, ${h.command} since ${h.startedAt}`;
}

function releaseAllSync(): void {
  for (const [key, h] of held) {
    releaseFile(h);
    held.delete(key);
  }
}

function releaseFile(h: Held): void {
  try {
    // Only our own file: a lock taken over after a mistaken stale judgement is not ours to remove.
    if (statSync(h.path).ino === h.ino) unlinkSync(h.path);
  } catch {
    // already gone
  }
  if (h.madeDir === undefined) return;
  try {
    if (readdirSync(h.madeDir).length === 0) rmdirSync(h.madeDir);
  } catch {
    // not empty or gone: leave it
  }
}

/**
 * Takes the lock of a folder (created if needed) for the life of a command: a `.toolsim.lock` file made
 * atomically (written in full, then hard-linked into place, which fails if one exists) with this process's
 * pid, host, start time and command. A lock whose holder is a dead process on this host is taken over; one held
 * by a live process (or on another host) is refused with `run.locked`, naming the holder and what to do.
 * Re-entrant within a process; released on `release()` (by the last holder) or when the process exits.
 */
export function acquireRunLock(dir: string, command: string): RunLock {
  let made: string | undefined;
  try {
    made = mkdirSync(dir, { recursive: true });
  } catch (e) {
    // A file where the folder should be: say so (mkdir's EEXIST would say "already exists").
    const err = e as NodeJS.ErrnoException;
    if (err.code === "EEXIST") throw Object.assign(new Error(`ENOTDIR: not a directory, '${dir}'`), { code: "ENOTDIR", path: dir, syscall: "mkdir" });
    throw e;
  }
  const key = realpathSync(dir);
  const path = join(key, LOCK_FILE);
  const mine = held.get(key);
  if (mine) {
    mine.count++;
    return lockHandle(dir, key, mine);
  }
  const holder: LockHolder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString(), command };
  const start = processStartOf(process.pid);
  if (start !== undefined) holder.processStart = start;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(holder)}\n`);
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        linkSync(tmp, path);
        const entry: Held = { path, ino: statSync(path).ino, count: 1, ...(made !== undefined ? { madeDir: key } : {}) };
        held.set(key, entry);
        if (!exitHookInstalled) {
          exitHookInstalled = true;
          process.once("exit", releaseAllSync);
        }
        return lockHandle(dir, key, entry);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      }
      const existing = readLock(path);
      if (!existing) continue;
      const other = existing.holder;
      const stale = other
        ? other.hostname === holder.hostname && holderIsDead(other)
        : Date.now() - existing.mtimeMs > UNREADABLE_GRACE_MS;
      if (stale) {
        takeOver(path, existing.ino);
        continue;
      }
      const who = other ? describeHolder(other) : "a process whose lock file cannot be read";
      const remote = other !== undefined && other.hostname !== holder.hostname;
      throw new ToolsimError(
        "run.locked",
        `${dir} is in use by another toolsim process (${who}): wait for it to finish or stop it${other && !remote ? ` (kill ${other.pid})` : ""}` +
          (remote || !other ? `; if it is no longer running, remove ${join(dir, LOCK_FILE)}` : ""),
      );
    }
    throw new ToolsimError("run.locked", `${dir}: could not take its lock (${join(dir, LOCK_FILE)}) after several attempts; try again`);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // gone
    }
  }
}

function lockHandle(dir: string, key: string, entry: Held): RunLock {
  let released = false;
  return {
    dir: resolve(dir),
    path: entry.path,
    release() {
      if (released) return;
      released = true;
      entry.count--;
      if (entry.count > 0 || held.get(key) !== entry) return;
      held.delete(key);
      releaseFile(entry);
    },
  };
}

/** Who holds a folder's lock right now (undefined: nobody, or a dead process whose lock is stale). */
export function lockHolder(dir: string): LockHolder | undefined {
  const existing = readLock(join(dir, LOCK_FILE));
  const h = existing?.holder;
  if (!h) return undefined;
  if (h.hostname === hostname() && holderIsDead(h)) return undefined;
  return h;
}
