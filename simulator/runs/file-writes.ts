import { writeSync } from "node:fs";

/** Adds the file's path to a file-system error that lacks one (a failed `write` on a descriptor names no file). */
export function withPath(e: unknown, path: string): unknown {
  const err = e as NodeJS.ErrnoException | undefined;
  if (err !== null && typeof err === "object" && typeof err.code === "string" && err.path === undefined) err.path = path;
  return e;
}

/** Runs a file operation; a file-system error it throws names `path` (so the CLI can say which file failed). */
export function namingFile<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw withPath(e, path);
  }
}

/**
 * Writes all of a text to a descriptor: a short write (a file-size limit reached mid-way) is continued, so the
 * failure that follows (EFBIG, ENOSPC) is thrown, naming `path`, instead of a silently cut file.
 */
export function writeAllSync(fd: number, text: string, path?: string): void {
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  try {
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  } catch (e) {
    throw path !== undefined ? withPath(e, path) : e;
  }
}
