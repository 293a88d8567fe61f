import { describe, expect, it } from "vitest";
import { EventBus } from "../../../simulator/core/event-bus.js";
import type { SimEvent } from "../../../simulator/core/events.js";

const header = (episodeId: string) => ({ runId: "run-1", episodeId, from: "user" as const, to: "assistant" as const });
const FIXED = new Date("2025-03-01T10:00:00.000Z");

describe("EventBus", () => {
  it("delivers an event to the subscribers of its type, typed by that type, and stops after unsubscribe", () => {
    const bus = new EventBus(() => FIXED);
    const texts: string[] = [];
    const off = bus.on("user.instruction", (e) => {
      // `e` is the user.instruction event: its payload fields are typed.
      texts.push(`${e.request}:${e.text}`);
    });
    const finals: string[] = [];
    bus.on("assistant.final", (e) => void finals.push(e.text));

    bus.publish("user.instruction", header("ep-1"), { request: 0, text: "hello" });
    bus.publish("assistant.final", { ...header("ep-1"), from: "assistant", to: "user" }, { request: 0, text: "done" });
    expect(texts).toEqual(["0:hello"]);
    expect(finals).toEqual(["done"]);

    off();
    bus.publish("user.instruction", header("ep-1"), { request: 1, text: "again" });
    expect(texts).toEqual(["0:hello"]);
    // Unsubscribing twice is harmless.
    off();
  });

  it("delivers every type to `*` subscribers, after the typed ones", () => {
    const bus = new EventBus(() => FIXED);
    const order: string[] = [];
    bus.on("*", (e) => void order.push(`*:${e.type}`));
    bus.on("user.reply", (e) => void order.push(`typed:${e.type}`));
    bus.publish("user.reply", header("ep-1"), { text: "yes" });
    bus.publish("assistant.question", { ...header("ep-1"), from: "assistant", to: "user" }, { text: "which city?" });
    expect(order).toEqual(["typed:user.reply", "*:user.reply", "*:assistant.question"]);
  });

  it("numbers events per episode from 0, in publication order, with interleaved episodes", () => {
    const bus = new EventBus(() => FIXED);
    const seen: SimEvent[] = [];
    bus.on("*", (e) => void seen.push(e));
    const episodes = ["ep-a", "ep-b", "ep-c"];
    // Interleave: a, b, a, c, b, a, ...
    const pattern = [0, 1, 0, 2, 1, 0, 2, 2, 1, 0];
    pattern.forEach((p, i) => bus.publish("assistant.thought", header(episodes[p] as string), { text: `t${i}` }));

    for (const id of episodes) {
      const mine = seen.filter((e) => e.episodeId === id);
      expect(mine.map((e) => e.seq)).toEqual(mine.map((_, i) => i));
    }
    // Delivery order is publication order.
    expect(seen.map((e) => (e.type === "assistant.thought" ? e.text : ""))).toEqual(pattern.map((_, i) => `t${i}`));
  });

  it("stamps the common fields: runId, episodeId, seq, at (from the injected clock), from, to", () => {
    let t = Date.parse("2025-01-01T00:00:00.000Z");
    const bus = new EventBus(() => new Date((t += 1000)));
    const a = bus.publish("user.reply", header("ep-1"), { text: "x" });
    const b = bus.publish("tool.call", { runId: "run-1", episodeId: "ep-1", from: "assistant", to: "executor" }, { call: { id: "c1", name: "getThing", arguments: {} } });
    expect(a).toMatchObject({ type: "user.reply", runId: "run-1", episodeId: "ep-1", seq: 0, at: "2025-01-01T00:00:01.000Z", from: "user", to: "assistant", text: "x" });
    expect(b).toMatchObject({ type: "tool.call", seq: 1, at: "2025-01-01T00:00:02.000Z", from: "assistant", to: "executor" });
    expect(b.call.name).toBe("getThing");
  });

  it("uses real time without a clock", () => {
    const bus = new EventBus();
    const before = Date.now();
    const e = bus.publish("user.reply", header("ep-1"), { text: "x" });
    const at = Date.parse(e.at);
    expect(at).toBeGreaterThanOrEqual(before - 1);
    expect(at).toBeLessThanOrEqual(Date.now() + 1);
  });

  it("republishes a recorded event as it is (seq and time kept) and continues numbering after it", () => {
    const recorder = new EventBus(() => FIXED);
    const recorded: SimEvent[] = [];
    recorder.on("*", (e) => void recorded.push(e));
    for (let i = 0; i < 3; i++) recorder.publish("assistant.thought", header("ep-1"), { text: `t${i}` });

    const replay = new EventBus(() => new Date("2030-01-01T00:00:00.000Z"));
    const seen: SimEvent[] = [];
    replay.on("*", (e) => void seen.push(e));
    for (const e of recorded) replay.republish(e);
    expect(seen).toEqual(recorded);
    expect(seen.map((e) => e.at)).toEqual([FIXED.toISOString(), FIXED.toISOString(), FIXED.toISOString()]);

    // A fork: new events of the episode continue after the replayed ones.
    const next = replay.publish("assistant.thought", header("ep-1"), { text: "t3" });
    expect(next.seq).toBe(3);
    expect(next.at).toBe("2030-01-01T00:00:00.000Z");
  });

  it("forgets an episode's counter at endEpisode (a new episode with the id starts from 0)", () => {
    const bus = new EventBus(() => FIXED);
    bus.publish("user.reply", header("ep-1"), { text: "a" });
    bus.publish("user.reply", header("ep-1"), { text: "b" });
    bus.endEpisode("ep-1");
    expect(bus.publish("user.reply", header("ep-1"), { text: "c" }).seq).toBe(0);
  });

  it("a subscriber that throws does not keep the others (or the journal) from the event", async () => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    const quiet = new EventBus(() => FIXED, { onListenerError: (err, event) => void errors.push([err, event.type]) });
    const loud = new EventBus(() => FIXED);
    for (const b of [quiet, loud]) {
      b.on("user.reply", () => {
        throw new Error("subscriber bug");
      });
      b.on("*", (e) => void seen.push(e.type));
    }
    expect(() => quiet.publish("user.reply", header("ep-1"), { text: "a" })).not.toThrow();
    expect(errors).toEqual([[new Error("subscriber bug"), "user.reply"]]);

    // By default the error becomes a process warning.
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      for (let i = 0; i < 5; i++) expect(() => loud.publish("user.reply", header("ep-1"), { text: "a" })).not.toThrow();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(seen).toEqual(Array.from({ length: 6 }, () => "user.reply"));
    // Once per event type and message, not once per event.
    expect(warnings.filter((w) => w.includes("subscriber bug"))).toHaveLength(1);
  });
});
