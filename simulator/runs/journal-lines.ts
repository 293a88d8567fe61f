import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { open as openAsync } from "node:fs/promises";

/** How much of a file is read at a time. */
const CHUNK = 1 << 20;


/** Calls `fn` for each complete line of a file from `from`, with the byte offsets of the line and of the next. */
export function forEachLine(path: string, from: number, fn: (line: string, start: number, next: number) => void): void {
  if (!existsSync(path)) return;
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer | undefined;
    let pos = from;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, pos);
      if (n === 0) break;
      const chunk = carry ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      const base = pos - (carry?.length ?? 0);
      let s = 0;
      for (let i = chunk.indexOf(10, s); i >= 0; i = chunk.indexOf(10, s)) {
        fn(chunk.toString("utf8", s, i), base + s, base + i + 1);
        s = i + 1;
      }
      carry = s < chunk.length ? Buffer.from(chunk.subarray(s)) : undefined;
      pos += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** The complete lines of a file, read asynchronously (the last line is skipped when it lacks its newline). */
export async function* readLines(path: string): AsyncGenerator<string> {
  const handle = await openAsync(path, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer | undefined;
    let pos = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      const chunk = carry ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      let s = 0;
      const lines: string[] = [];
      for (let i = chunk.indexOf(10, s); i >= 0; i = chunk.indexOf(10, s)) {
        lines.push(chunk.toString("utf8", s, i));
        s = i + 1;
      }
      carry = s < chunk.length ? Buffer.from(chunk.subarray(s)) : undefined;
      pos += bytesRead;
      yield* lines;
    }
  } finally {
    await handle.close();
  }
}
