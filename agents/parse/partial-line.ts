import { closeSync, existsSync, fstatSync, ftruncateSync, openSync, readSync } from "node:fs";

const CHUNK = 1 << 16;

/**
 * Cuts the last line of an append-only JSON-lines file when it lacks its newline (a write cut short by a
 * crash); returns the number of bytes cut (0 when the file ends cleanly or does not exist).
 */
export function truncatePartialLine(path: string): number {
  if (!existsSync(path)) return 0;
  const fd = openSync(path, "r+");
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, size));
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - buf.length);
      const n = readSync(fd, buf, 0, end - start, start);
      const i = buf.subarray(0, n).lastIndexOf(10);
      if (i >= 0) {
        const keep = start + i + 1;
        if (keep < size) ftruncateSync(fd, keep);
        return size - keep;
      }
      end = start;
    }
    ftruncateSync(fd, 0);
    return size;
  } finally {
    closeSync(fd);
  }
}
