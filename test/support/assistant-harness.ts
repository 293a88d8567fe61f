import { ChatOpenAI } from "@langchain/openai";
import type { Plan } from "../../agents/roles/plan.js";
import type { AssistantAgent, EpisodeTranscript, Tester, UserAgent, UserTurn } from "../../agents/roles/roles.js";
import { SimulatedExecutor } from "../../agents/executor/simulated-executor.js";
import type { EpisodeToolset } from "../../agents/roles/toolbox.js";
import type { Verdict } from "../../agents/roles/verdict.js";
import { EventBus } from "../../simulator/core/event-bus.js";
import type { SimEvent, SimEventOf, SimEventType } from "../../simulator/core/events.js";
import { runEpisode, type EpisodeOutcome } from "../../simulator/core/run-episode.js";
import { bundledToolsetsDir, loadToolset } from "../../toolsets/load-toolset.js";
import type { ReceivedRequest } from "./openai-server.js";

/** A bundled toolset by file name (`holidays`, `weather`...). */
export async function bundledToolset(name: string): Promise<EpisodeToolset> {
  const loaded = await loadToolset(`${bundledToolsetsDir()}/${name}.yaml`);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.value;
}

/** The real ChatOpenAI client pointed at a test server. */
export function testChatOpenAI(baseURL: string): ChatOpenAI {
  return new ChatOpenAI({ model: "test", apiKey: "sk-test", configuration: { baseURL }, maxRetries: 0 });
}

/** A user with fixed instructions (one per request) and replies; it records the questions it was asked. */
export class ScriptedUser implements UserAgent {
  readonly questions: string[] = [];
  constructor(
    private readonly instructions: string[],
    private readonly replies: string[] = [],
  ) {}
  async plan(): Promise<Plan> {
    return { requests: this.instructions.map(() => ({ steps: [], withheld: [], style: "imperative" as const })) };
  }
  async instruct(turn: UserTurn): Promise<string> {
    return this.instructions[turn.request] ?? "";
  }
  async reply(question: string): Promise<string> {
    this.questions.push(question);
    return this.replies.shift() ?? "I don't know.";
  }
}

/** A tester that accepts every episode and keeps the transcript. */
export class KeepingTester implements Tester {
  transcript: EpisodeTranscript | undefined;
  async judge(episode: EpisodeTranscript): Promise<Verdict> {
    this.transcript = episode;
    return { accepted: true, stages: [] };
  }
}

/** What one episode of the harness gives back. */
export interface HarnessRun {
  events: SimEvent[];
  outcome: EpisodeOutcome;
  transcript: EpisodeTranscript | undefined;
}

/** Runs one episode through the simulator's real loop with the simulated executor. */
export async function runAssistantEpisode(
  assistant: AssistantAgent,
  options: { toolsets: EpisodeToolset[]; instructions: string[]; replies?: string[]; maxSteps?: number; index?: number },
): Promise<HarnessRun> {
  const bus = new EventBus(() => new Date("2025-01-01T00:00:00.000Z"));
  const events: SimEvent[] = [];
  bus.on("*", (e) => void events.push(e));
  const tester = new KeepingTester();
  const outcome = await runEpisode(
    { runId: "run-text", index: options.index ?? 0, runSeed: 7, level: "call", toolsets: options.toolsets, ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}) },
    { user: new ScriptedUser(options.instructions, options.replies ?? []), assistant, executor: new SimulatedExecutor(), tester },
    bus,
  );
  return { events, outcome, transcript: tester.transcript };
}

/** The events of one type. */
export function eventsOf<K extends SimEventType>(events: readonly SimEvent[], type: K): SimEventOf<K>[] {
  return events.filter((e): e is SimEventOf<K> => e.type === type);
}

/** The chat messages of a received request as `[role, content]` pairs. */
export function sentMessages(request: ReceivedRequest | undefined): Array<[string, string]> {
  const messages = request?.body["messages"];
  if (!Array.isArray(messages)) return [];
  return messages.map((m: { role?: unknown; content?: unknown }) => [String(m.role), typeof m.content === "string" ? m.content : JSON.stringify(m.content)]);
}

/** The last user message of a received request. */
export function lastUserText(request: ReceivedRequest | undefined): string {
  const user = sentMessages(request).filter(([role]) => role === "user");
  return user[user.length - 1]?.[1] ?? "";
}
