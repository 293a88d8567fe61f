import { describe, expect, it } from "vitest";
import { schedule } from "../../../simulator/core/scheduler.js";

/** A task that finishes after a pseudo-random number of event-loop turns, so completion order is scrambled. */
const scrambled = async (i: number): Promise<number> => {
  for (let k = 0; k < ((i * 7919) % 5) + 1; k++) await new Promise((r) => setImmediate(r));
  return i * 10;
};

describe("schedule", () => {
  it("commits in index order whatever the completion order, with at most `concurrency` in flight", async () => {
    let inFlight = 0;
    let peak = 0;
    const committed: Array<[number, number]> = [];
    const result = await schedule({
      start: 3,
      end: 20,
      concurrency: 4,
      task: async (i) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        const v = await scrambled(i);
        inFlight--;
        return v;
      },
      commit: (i, v) => void committed.push([i, v]),
    });
    expect(committed).toEqual(Array.from({ length: 17 }, (_, k) => [k + 3, (k + 3) * 10]));
    expect(peak).toBe(4);
    expect(result).toEqual({ committed: 17, next: 20, stopped: false });
  });

  it("lets the event loop turn between items, so a signal or timer is seen during a run of pure-CPU tasks", async () => {
    let stop = false;
    const timer = setTimeout(() => (stop = true), 5);
    const committed: number[] = [];
    const result = await schedule({
      start: 0,
      end: 1_000_000,
      concurrency: 2,
      // No I/O at all: a chain of microtasks.
      task: async (i) => {
        const until = Date.now() + 1;
        while (Date.now() < until);
        return i;
      },
      commit: (i) => void committed.push(i),
      stopped: () => stop,
    });
    clearTimeout(timer);
    expect(result.stopped).toBe(true);
    expect(result.next).toBeLessThan(1000);
    // Everything started was committed: a prefix.
    expect(committed).toEqual(Array.from({ length: result.next }, (_, i) => i));
  });

  it("stop: no new item starts, the ones in flight finish and are committed", async () => {
    const started: number[] = [];
    const committed: number[] = [];
    const result = await schedule({
      start: 0,
      end: 100,
      concurrency: 3,
      task: async (i) => {
        started.push(i);
        return scrambled(i);
      },
      commit: (i) => void committed.push(i),
      stopped: () => started.length >= 10,
    });
    expect(result.stopped).toBe(true);
    expect(started).toHaveLength(10);
    expect(committed).toEqual(started.slice().sort((a, b) => a - b));
    expect(result.next).toBe(10);
  });

  it("a failing task stops the dispatch, lets the others finish and then throws; nothing runs afterwards", async () => {
    const started: number[] = [];
    const committed: number[] = [];
    const run = schedule({
      start: 0,
      end: 50,
      concurrency: 3,
      task: async (i) => {
        started.push(i);
        await scrambled(i);
        if (i === 5) throw new Error("task 5 failed");
        return i;
      },
      commit: (i) => void committed.push(i),
    });
    await expect(run).rejects.toThrow("task 5 failed");
    const after = started.length;
    await new Promise((r) => setTimeout(r, 20));
    expect(started.length).toBe(after);
    expect(after).toBeLessThan(10);
    expect(committed.every((i, k) => i === k && i < 5)).toBe(true);
  });

  it("a failing commit (a full disk) is thrown after the work in flight, not lost", async () => {
    const run = schedule({
      start: 0,
      end: 30,
      concurrency: 2,
      task: scrambled,
      commit: (i) => {
        if (i === 2) throw new Error("ENOSPC");
      },
    });
    await expect(run).rejects.toThrow("ENOSPC");
  });

  it("holds at most `window` results behind a slow item: later items wait, the commits are the same", async () => {
    let started = 0;
    let committedCount = 0;
    let mostAhead = 0;
    const committed: number[] = [];
    const result = await schedule({
      start: 0,
      end: 60,
      concurrency: 4,
      window: 6,
      task: async (i) => {
        started++;
        mostAhead = Math.max(mostAhead, started - committedCount);
        // Item 0 is slow: without a window the three other workers would run every other item meanwhile.
        for (let k = 0; k < (i === 0 ? 200 : 1); k++) await new Promise((r) => setImmediate(r));
        return i;
      },
      commit: (i) => {
        committedCount++;
        committed.push(i);
      },
    });
    expect(committed).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(result).toEqual({ committed: 60, next: 60, stopped: false });
    expect(mostAhead).toBeLessThanOrEqual(6);
  });

  it("a released item frees its slot: another starts while its result waits, commits stay in order, the schedule waits for it", async () => {
    // Like a queue's coordinator: an item's work ends (release) before its result is handed back in order.
    let working = 0;
    let peakWorking = 0;
    let peakStarted = 0;
    let started = 0;
    let settled = 0;
    const committed: number[] = [];
    const handBack: Array<() => void> = [];
    const result = await schedule({
      start: 0,
      end: 40,
      concurrency: 3,
      window: 12,
      task: (i, release) =>
        new Promise<number>((resolve) => {
          started++;
          working++;
          peakWorking = Math.max(peakWorking, working);
          peakStarted = Math.max(peakStarted, started - settled);
          void scrambled(i).then(() => {
            working--;
            release();
            // Item 0's result comes last of the first dozen; the others a turn after their release.
            const give = (): void => {
              settled++;
              resolve(i);
            };
            if (i === 0) handBack.push(give);
            else setImmediate(give);
            if (i === 11 || (i > 0 && started >= 40)) handBack.splice(0).forEach((g) => g());
          });
        }),
      commit: (i) => void committed.push(i),
    });
    expect(committed).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(result).toEqual({ committed: 40, next: 40, stopped: false });
    // Never more than `concurrency` items working, but more than that started and not yet handed back.
    expect(peakWorking).toBe(3);
    expect(peakStarted).toBeGreaterThan(3);
    expect(peakStarted).toBeLessThanOrEqual(12);
  });

  it("a released item that fails is still waited for and thrown", async () => {
    const run = schedule({
      start: 0,
      end: 10,
      concurrency: 2,
      task: async (i, release) => {
        release();
        await scrambled(i);
        if (i === 3) throw new Error("item 3 failed after its release");
        return i;
      },
      commit: () => undefined,
    });
    await expect(run).rejects.toThrow("item 3 failed after its release");
  });

  it("an empty range commits nothing", async () => {
    expect(await schedule({ start: 5, end: 5, concurrency: 4, task: scrambled, commit: () => undefined })).toEqual({ committed: 0, next: 5, stopped: false });
  });
});
