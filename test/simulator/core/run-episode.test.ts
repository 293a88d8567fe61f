import { beforeAll, describe, expect, it } from "vitest";
import type { AgentContext } from "../../../agents/roles/agent-context.js";
import type { AssistantTurn, DialogueMessage } from "../../../agents/roles/dialogue.js";
import type { Plan } from "../../../agents/roles/plan.js";
import type { AgentTool, AssistantAgent, EpisodeTranscript, Tester, ToolExecutor, UserAgent, UserTurn } from "../../../agents/roles/roles.js";
import { SimulatedExecutor } from "../../../agents/executor/simulated-executor.js";
import { TOOL_SEARCHER } from "../../../agents/assistant/tool-searcher.js";
import type { EpisodeToolset } from "../../../agents/roles/toolbox.js";
import type { Verdict } from "../../../agents/roles/verdict.js";
import { EventBus } from "../../../simulator/core/event-bus.js";
import type { SimEvent, SimEventOf, SimEventType } from "../../../simulator/core/events.js";
import { episodeId, runEpisode, type EpisodeAgents, type EpisodeSetup } from "../../../simulator/core/run-episode.js";
import { bundledToolsetsDir, loadToolset } from "../../../toolsets/load-toolset.js";

// ------------------------------------------------------------------------------------------ scripted agents

/** A user with a fixed plan, instructions and replies; records what it was told. */
class ScriptedUser implements UserAgent {
  readonly questions: string[] = [];
  readonly instructed: number[] = [];
  /** The dialogue length seen at each instruct (multi-request dialogues keep the earlier turns). */
  readonly dialogueAtInstruct: number[] = [];
  constructor(
    private readonly planValue: Plan,
    private readonly instructions: string[],
    private readonly replies: string[] = [],
    private readonly fail?: "plan" | "instruct" | "reply",
  ) {}
  async plan(): Promise<Plan> {
    if (this.fail === "plan") throw new Error("the planner broke");
    return this.planValue;
  }
  async instruct(turn: UserTurn): Promise<string> {
    if (this.fail === "instruct") throw new Error("cannot phrase it");
    this.instructed.push(turn.request);
    this.dialogueAtInstruct.push(turn.dialogue.length);
    return this.instructions[turn.request] ?? `request ${turn.request}`;
  }
  async reply(question: string): Promise<string> {
    if (this.fail === "reply") throw new Error("no reply");
    this.questions.push(question);
    return this.replies.shift() ?? "I don't know";
  }
}

/** An assistant that plays a script of turns (a function may look at the dialogue); records what it was offered. */
class ScriptedAssistant implements AssistantAgent {
  readonly offered: string[][] = [];
  readonly seen: DialogueMessage[][] = [];
  private i = 0;
  constructor(private readonly script: Array<AssistantTurn | ((dialogue: readonly DialogueMessage[], tools: readonly AgentTool[]) => AssistantTurn)>) {}
  async step(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[]): Promise<AssistantTurn> {
    this.offered.push(tools.map((t) => t.name));
    this.seen.push([...dialogue]);
    const next = this.script[Math.min(this.i++, this.script.length - 1)];
    if (next === undefined) throw new Error("script is empty");
    return typeof next === "function" ? next(dialogue, tools) : next;
  }
}

/** A tester that accepts (or rejects at `plan`) and keeps the transcript it judged. */
class RecordingTester implements Tester {
  transcript: EpisodeTranscript | undefined;
  constructor(private readonly accept = true) {}
  async judge(episode: EpisodeTranscript): Promise<Verdict> {
    this.transcript = episode;
    const stages = [{ stage: "plan" as const, pass: this.accept, reasons: this.accept ? [] : ["not achieved"] }];
    return this.accept ? { accepted: true, stages } : { accepted: false, stages, failedStage: "plan" };
  }
}

const call = (id: string, name: string, args: Record<string, unknown> | string): AssistantTurn => ({ kind: "calls", thought: `I call ${name}.`, calls: [{ id, name, arguments: args }] });
const final = (text: string): AssistantTurn => ({ kind: "final", text });

const PLAN: Plan = {
  requests: [{ steps: [{ toolset: "holidays", tool: "getPublicHolidays", args: { year: 2025, countryCode: "DE" }, links: [] }], withheld: [], style: "imperative" }],
};

// ------------------------------------------------------------------------------------------ harness

let holidays: EpisodeToolset;
let weather: EpisodeToolset;
beforeAll(async () => {
  for (const name of ["holidays", "weather"]) {
    const loaded = await loadToolset(`${bundledToolsetsDir()}/${name}.yaml`);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
    if (name === "holidays") holidays = loaded.value;
    else weather = loaded.value;
  }
});

interface Ran {
  events: SimEvent[];
  outcome: Awaited<ReturnType<typeof runEpisode>>;
}

async function run(agents: Partial<EpisodeAgents> & Pick<EpisodeAgents, "user" | "assistant">, setup: Partial<EpisodeSetup> = {}): Promise<Ran> {
  const bus = new EventBus(() => new Date("2025-01-01T00:00:00.000Z"));
  const events: SimEvent[] = [];
  bus.on("*", (e) => void events.push(e));
  const outcome = await runEpisode(
    { runId: "run-test", index: 3, runSeed: 7, level: "call", toolsets: [holidays], ...setup },
    { executor: new SimulatedExecutor(), tester: new RecordingTester(), ...agents },
    bus,
  );
  return { events, outcome };
}

const types = (events: readonly SimEvent[]): SimEventType[] => events.map((e) => e.type);
const only = <K extends SimEventType>(events: readonly SimEvent[], type: K): SimEventOf<K>[] => events.filter((e): e is SimEventOf<K> => e.type === type);

// ------------------------------------------------------------------------------------------ tests

describe("runEpisode with scripted agents", () => {
  it("calls -> results -> final answer -> verdict, with events in order, numbered, addressed from/to", async () => {
    const tester = new RecordingTester();
    const assistant = new ScriptedAssistant([call("c1", "getPublicHolidays", { year: 2025, countryCode: "DE" }), final("There are 9 holidays.")]);
    const { events, outcome } = await run({ user: new ScriptedUser(PLAN, ["List the 2025 holidays in Germany."]), assistant, tester });

    expect(types(events)).toEqual([
      "episode.started",
      "user.plan",
      "user.instruction",
      "assistant.thought",
      "tool.call",
      "tool.result",
      "assistant.final",
      "tester.verdict",
      "episode.finished",
    ]);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
    expect(events.every((e) => e.runId === "run-test" && e.episodeId === episodeId(3))).toBe(true);
    expect(events.map((e) => `${e.from}->${e.to}`)).toEqual([
      "simulator->simulator",
      "user->simulator",
      "user->assistant",
      "assistant->simulator",
      "assistant->executor",
      "executor->assistant",
      "assistant->user",
      "tester->simulator",
      "simulator->simulator",
    ]);
    expect(outcome).toMatchObject({ episodeId: "ep-000003", outcome: "accepted" });
    expect(only(events, "episode.finished")[0]).toMatchObject({ outcome: "accepted", steps: 2, calls: 1 });
    expect(only(events, "episode.started")[0]).toMatchObject({ index: 3, level: "call", toolsets: ["holidays"] });

    // The assistant saw the observation before answering.
    const second = assistant.seen[1] ?? [];
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    const tool = second[2];
    expect(tool?.role === "tool" && tool.result.status).toBe(200);

    // The tester judged the plan, the dialogue, the calls and the end.
    const t = tester.transcript;
    expect(t?.plan).toEqual(PLAN);
    expect(t?.calls.map((c) => [c.call.name, c.result.status, c.request, c.toolset])).toEqual([["getPublicHolidays", 200, 0, "holidays"]]);
    expect(t?.ends).toEqual([{ kind: "final", text: "There are 9 holidays." }]);
  });

  it("tool.call carries the operation and the HTTP request the call maps to; tool.result the observation", async () => {
    const assistant = new ScriptedAssistant([call("c1", "getPublicHolidays", JSON.stringify({ year: 2025, countryCode: "FR", types: "public" })), final("ok")]);
    const { events } = await run({ user: new ScriptedUser(PLAN, ["x"]), assistant });
    const [c] = only(events, "tool.call");
    expect(c?.toolset).toBe("holidays");
    expect(c?.operation).toMatchObject({ operationId: "getPublicHolidays", method: "get", path: "/holidays/{year}/{countryCode}" });
    expect(c?.request).toMatchObject({ method: "GET", path: "/holidays/2025/FR", query: { types: "public" } });
    const [r] = only(events, "tool.result");
    expect(r).toMatchObject({ callId: "c1", name: "getPublicHolidays" });
    expect(r?.result.status).toBe(200);
    expect(r?.result.errors).toEqual([]);
  });

  it("a call to an unknown tool gets a 404 problem naming the nearest tools, without an operation", async () => {
    const assistant = new ScriptedAssistant([call("c1", "getPublicHoliday", { year: 2025 }), final("sorry")]);
    const { events } = await run({ user: new ScriptedUser(PLAN, ["x"]), assistant });
    const [c] = only(events, "tool.call");
    expect(c?.operation).toBeUndefined();
    const [r] = only(events, "tool.result");
    expect(r?.result.status).toBe(404);
    expect(JSON.stringify(r?.result.body)).toContain("getPublicHolidays");
  });

  it("a question goes to the user, whose reply comes back to the assistant", async () => {
    const user = new ScriptedUser(PLAN, ["Holidays please."], ["Germany, for 2025."]);
    const assistant = new ScriptedAssistant([{ kind: "question", text: "Which country and year?" }, call("c1", "getPublicHolidays", { year: 2025, countryCode: "DE" }), final("Done.")]);
    const { events, outcome } = await run({ user, assistant });
    expect(types(events)).toEqual([
      "episode.started",
      "user.plan",
      "user.instruction",
      "assistant.question",
      "user.reply",
      "assistant.thought",
      "tool.call",
      "tool.result",
      "assistant.final",
      "tester.verdict",
      "episode.finished",
    ]);
    expect(only(events, "assistant.question")[0]).toMatchObject({ from: "assistant", to: "user", text: "Which country and year?" });
    expect(only(events, "user.reply")[0]).toMatchObject({ from: "user", to: "assistant", text: "Germany, for 2025." });
    expect(user.questions).toEqual(["Which country and year?"]);
    const afterReply = assistant.seen[1] ?? [];
    expect(afterReply.map((m) => [m.role, m.content])).toEqual([
      ["user", "Holidays please."],
      ["assistant", "Which country and year?"],
      ["user", "Germany, for 2025."],
    ]);
    expect(outcome.outcome).toBe("accepted");
  });

  it("too many questions end the episode on the question budget", async () => {
    const tester = new RecordingTester(false);
    const assistant = new ScriptedAssistant([{ kind: "question", text: "Which one?" }]);
    const { events } = await run({ user: new ScriptedUser(PLAN, ["x"], ["a", "b", "c", "d"]), assistant, tester }, { maxQuestions: 2 });
    expect(only(events, "assistant.question")).toHaveLength(3);
    expect(only(events, "user.reply")).toHaveLength(2);
    expect(tester.transcript?.ends).toEqual([{ kind: "budget", reason: "more than 2 questions for one request" }]);
  });

  it("a give-up ends the dialogue (later requests are not made) and goes to the tester", async () => {
    const plan: Plan = { requests: [PLAN.requests[0] as Plan["requests"][number], PLAN.requests[0] as Plan["requests"][number]] };
    const user = new ScriptedUser(plan, ["first", "second"]);
    const tester = new RecordingTester(false);
    const assistant = new ScriptedAssistant([{ kind: "give-up", thought: "No tool fits.", reason: "I cannot do that." }]);
    const { events, outcome } = await run({ user, assistant, tester });
    expect(types(events)).toEqual(["episode.started", "user.plan", "user.instruction", "assistant.thought", "assistant.gave-up", "tester.verdict", "episode.finished"]);
    expect(only(events, "assistant.gave-up")[0]).toMatchObject({ from: "assistant", to: "user", request: 0, reason: "I cannot do that." });
    expect(user.instructed).toEqual([0]);
    expect(tester.transcript?.ends).toEqual([{ kind: "give-up", reason: "I cannot do that." }]);
    expect(outcome.outcome).toBe("rejected");
    expect(only(events, "episode.finished")[0]).toMatchObject({ outcome: "rejected", reason: "plan", steps: 1, calls: 0 });
  });

  it("stops at the step budget and tells the tester why", async () => {
    const tester = new RecordingTester(false);
    const assistant = new ScriptedAssistant([call("c", "getPublicHolidays", { year: 2025, countryCode: "DE" })]);
    const { events } = await run({ user: new ScriptedUser(PLAN, ["x"]), assistant, tester }, { maxSteps: 3 });
    expect(assistant.offered).toHaveLength(3);
    expect(only(events, "tool.call")).toHaveLength(3);
    expect(only(events, "assistant.final")).toHaveLength(0);
    expect(tester.transcript?.ends).toEqual([{ kind: "budget", reason: "no final answer within 3 steps" }]);
    expect(only(events, "episode.finished")[0]).toMatchObject({ outcome: "rejected", steps: 3, calls: 3 });
  });

  it("runs a multi-request dialogue: one instruction and one final answer per request, the dialogue carried over", async () => {
    const plan: Plan = {
      requests: [
        PLAN.requests[0] as Plan["requests"][number],
        { steps: [{ toolset: "holidays", tool: "getNextHolidays", args: { countryCode: "DE" }, links: [] }], withheld: [], style: "question" },
      ],
    };
    const user = new ScriptedUser(plan, ["Holidays of 2025 in Germany.", "And the next ones?"]);
    const tester = new RecordingTester();
    const assistant = new ScriptedAssistant([
      call("c1", "getPublicHolidays", { year: 2025, countryCode: "DE" }),
      final("Here are the 2025 holidays."),
      call("c2", "getNextHolidays", { countryCode: "DE" }),
      final("The next one is soon."),
    ]);
    const { events } = await run({ user, assistant, tester });
    expect(types(events)).toEqual([
      "episode.started",
      "user.plan",
      "user.instruction",
      "assistant.thought",
      "tool.call",
      "tool.result",
      "assistant.final",
      "user.instruction",
      "assistant.thought",
      "tool.call",
      "tool.result",
      "assistant.final",
      "tester.verdict",
      "episode.finished",
    ]);
    expect(only(events, "user.instruction").map((e) => e.request)).toEqual([0, 1]);
    expect(only(events, "assistant.final").map((e) => e.request)).toEqual([0, 1]);
    expect(user.instructed).toEqual([0, 1]);
    // The second instruction is given with the first exchange in the dialogue (user, call, tool, final).
    expect(user.dialogueAtInstruct).toEqual([0, 4]);
    expect(tester.transcript?.calls.map((c) => [c.call.name, c.request])).toEqual([
      ["getPublicHolidays", 0],
      ["getNextHolidays", 1],
    ]);
    expect(tester.transcript?.ends.map((e) => e.kind)).toEqual(["final", "final"]);
    expect(only(events, "episode.finished")[0]).toMatchObject({ steps: 4, calls: 2 });
  });

  describe("an agent that throws ends the episode with outcome error and a reason; nothing escapes", () => {
    const throwing = (where: "assistant" | "executor" | "tester"): Partial<EpisodeAgents> => {
      if (where === "assistant") return { assistant: { step: async () => Promise.reject(new Error("model exploded")) } };
      if (where === "executor") return { executor: { execute: async () => Promise.reject(new TypeError("executor bug")) } satisfies ToolExecutor };
      return { tester: { judge: async () => Promise.reject("a string, not an Error") } };
    };
    const cases: Array<[string, () => Partial<EpisodeAgents> & Pick<EpisodeAgents, "user" | "assistant">, string]> = [
      ["assistant", () => ({ user: new ScriptedUser(PLAN, ["x"]), ...throwing("assistant") }) as never, "model exploded"],
      ["executor", () => ({ user: new ScriptedUser(PLAN, ["x"]), assistant: new ScriptedAssistant([call("c1", "getPublicHolidays", {}), final("x")]), ...throwing("executor") }), "executor bug"],
      ["tester", () => ({ user: new ScriptedUser(PLAN, ["x"]), assistant: new ScriptedAssistant([final("x")]), ...throwing("tester") }), "a string, not an Error"],
      ["user.plan", () => ({ user: new ScriptedUser(PLAN, ["x"], [], "plan"), assistant: new ScriptedAssistant([final("x")]) }), "the planner broke"],
      ["user.reply", () => ({ user: new ScriptedUser(PLAN, ["x"], [], "reply"), assistant: new ScriptedAssistant([{ kind: "question", text: "?" }]) }), "no reply"],
    ];
    for (const [name, agents, reason] of cases) {
      it(`${name} throws`, async () => {
        const { events, outcome } = await run(agents());
        const last = events[events.length - 1];
        expect(last?.type).toBe("episode.finished");
        expect(last).toMatchObject({ outcome: "error", from: "simulator", to: "simulator" });
        expect(last?.type === "episode.finished" && last.reason).toContain(reason);
        expect(outcome).toMatchObject({ outcome: "error" });
        expect(outcome.reason).toContain(reason);
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
        expect(only(events, "tester.verdict")).toHaveLength(0);
      });
    }

    it("a later episode on the same bus runs normally", async () => {
      const bus = new EventBus();
      const events: SimEvent[] = [];
      bus.on("*", (e) => void events.push(e));
      const setup = (index: number): EpisodeSetup => ({ runId: "r", index, runSeed: 1, level: "call", toolsets: [holidays] });
      const bad = await runEpisode(setup(0), { user: new ScriptedUser(PLAN, ["x"]), assistant: { step: () => Promise.reject(new Error("boom")) }, executor: new SimulatedExecutor(), tester: new RecordingTester() }, bus);
      const good = await runEpisode(setup(1), { user: new ScriptedUser(PLAN, ["x"]), assistant: new ScriptedAssistant([final("fine")]), executor: new SimulatedExecutor(), tester: new RecordingTester() }, bus);
      expect([bad.outcome, good.outcome]).toEqual(["error", "accepted"]);
    });
  });

  it("passes each agent its own context: episode id, index, a seed derived from the run seed, and the level", async () => {
    const contexts: AgentContext[] = [];
    const user = new ScriptedUser(PLAN, ["x"]);
    const spy: UserAgent = {
      plan: async (ctx) => (contexts.push(ctx), user.plan()),
      instruct: (turn) => user.instruct(turn),
      reply: (q) => user.reply(q),
    };
    const assistant: AssistantAgent = { step: async (_d, _t, ctx) => (contexts.push(ctx), final("x")) };
    await run({ user: spy, assistant }, { level: "call" });
    await run({ user: spy, assistant }, { level: "call" });
    const [u1, a1, u2] = contexts;
    expect(u1).toMatchObject({ runId: "run-test", episodeId: "ep-000003", index: 3, level: "call" });
    expect(u1?.seed).toBe(a1?.seed);
    expect(u1?.seed).toBe(u2?.seed);
    // Separate random streams per role, equal across runs of the same episode.
    expect(u1?.rng.next()).not.toBe(a1?.rng.next());
    expect(u1?.toolbox.entries.map((e) => e.name)).toContain("getPublicHolidays");
  });

  describe("levels", () => {
    it("call: all the toolsets' tools are offered from the start, ToolSearcher is not", async () => {
      const assistant = new ScriptedAssistant([final("x")]);
      await run({ user: new ScriptedUser(PLAN, ["x"]), assistant }, { level: "call" });
      expect(assistant.offered[0]).toEqual(holidays.catalog.tools.map((t) => t.name));
      expect(assistant.offered[0]).not.toContain(TOOL_SEARCHER);
    });

    for (const level of ["retrieve", "plan"] as const) {
      it(`${level}: only ToolSearcher at first, then ToolSearcher and the tools it found`, async () => {
        const assistant = new ScriptedAssistant([
          call("s1", TOOL_SEARCHER, { keywords: "public holidays of a country in a year" }),
          (dialogue) => {
            const last = dialogue[dialogue.length - 1];
            const found = last?.role === "tool" ? (last.result.body as { tools: { name: string }[] }).tools.map((t) => t.name) : [];
            return call("c1", found.includes("getPublicHolidays") ? "getPublicHolidays" : "missing", { year: 2025, countryCode: "DE" });
          },
          final("Done."),
        ]);
        const { events, outcome } = await run({ user: new ScriptedUser(PLAN, ["List the 2025 holidays in Germany."]), assistant }, { level, toolsets: [holidays, weather] });
        expect(assistant.offered[0]).toEqual([TOOL_SEARCHER]);
        expect(assistant.offered[1]?.[0]).toBe(TOOL_SEARCHER);
        expect(assistant.offered[1]).toContain("getPublicHolidays");
        expect(assistant.offered[1]?.length).toBeLessThanOrEqual(4);
        expect(assistant.offered[1]).not.toContain("getForecast");

        const calls = only(events, "tool.call");
        expect(calls.map((c) => c.call.name)).toEqual([TOOL_SEARCHER, "getPublicHolidays"]);
        expect(calls[0]?.operation).toBeUndefined();
        expect(calls[1]?.operation?.operationId).toBe("getPublicHolidays");
        const results = only(events, "tool.result");
        expect(results[0]?.result).toMatchObject({ status: 200, source: "search" });
        expect(results[1]?.result.status).toBe(200);
        expect(only(events, "episode.started")[0]).toMatchObject({ level, toolsets: ["holidays", "weather"] });
        expect(outcome.outcome).toBe("accepted");
      });
    }

    it("retrieve: ToolSearcher without keywords gets a 422 problem", async () => {
      const assistant = new ScriptedAssistant([call("s1", TOOL_SEARCHER, {}), final("x")]);
      const { events } = await run({ user: new ScriptedUser(PLAN, ["x"]), assistant }, { level: "retrieve" });
      const [r] = only(events, "tool.result");
      expect(r?.result).toMatchObject({ status: 422, source: "validation" });
      expect(r?.result.errors[0]?.location).toEqual(["arguments", "keywords"]);
      expect(assistant.offered[1]).toEqual([TOOL_SEARCHER]);
    });
  });
});
