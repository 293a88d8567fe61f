import type { AgentContext } from "../../agents/roles/agent-context.js";
import type { AssistantToolCall, AssistantTurn, DialogueMessage } from "../../agents/roles/dialogue.js";
import type { EpisodeState } from "../../agents/roles/episode-state.js";
import type { Plan } from "../../agents/roles/plan.js";
import type { AgentTool, AssistantAgent, EpisodeTranscript, Tester, ToolExecutor, UserAgent, UserTurn } from "../../agents/roles/roles.js";
import type { Verdict } from "../../agents/roles/verdict.js";
import type { ToolResult } from "../../specs/call/tool-result.js";
import type { Party } from "../core/events.js";
import type { EpisodeScript, RecordedCall, RecordedLlmCall } from "./journal-script.js";

/** Thrown by a journal agent when the loop asks for something the journal does not hold. */
export class ReplayMismatch extends Error {
  override name = "ReplayMismatch";
}

/** Options of {@link JournalAgents}. */
export interface JournalAgentsOptions {
  /** Publishes a recorded model call again in the episode (before the act it preceded). */
  publishLlm: (call: RecordedLlmCall) => void;
  /** Turns from this one on are played by the live agents (fork); default: none (pure replay). */
  fromTurn?: number;
  /** The live user and assistant of a fork. */
  live?: { user?: UserAgent; assistant?: AssistantAgent };
}

/**
 * The scripted side of a replayed episode: a user, an assistant, an executor and a tester that say again what
 * the journal recorded, in order, re-publishing the model calls each made first. An episode that ended with an
 * error is reproduced: the role that failed throws the recorded reason at the same point. From `fromTurn` on
 * (fork), the user and assistant turns are played by the live agents instead.
 */
export class JournalAgents {
  /** Turns played so far (scripted and live). */
  turn = 0;
  private userAct = 0;
  private assistantAct = 0;
  private readonly calls = new Map<string, RecordedCall[]>();

  constructor(
    readonly script: EpisodeScript,
    private readonly options: JournalAgentsOptions,
  ) {
    for (const act of script.assistant) {
      for (const c of act.calls) {
        const list = this.calls.get(c.call.id) ?? [];
        list.push(c);
        this.calls.set(c.call.id, list);
      }
    }
  }

  /** Whether the next turn is played live (a fork past its turn). */
  get live(): boolean {
    return this.options.fromTurn !== undefined && this.turn >= this.options.fromTurn;
  }

  private publish(list: readonly RecordedLlmCall[]): void {
    for (const c of list) this.options.publishLlm(c);
  }

  /** Throws the recorded error of an episode that failed here, or a mismatch. */
  private end(role: Party, wanted: string): never {
    const f = this.script.finished;
    if (f?.outcome === "error") {
      this.publish(this.script.trailingLlm.get(role) ?? []);
      this.script.trailingLlm.delete(role);
      throw new Error(f.reason ?? "error");
    }
    throw new ReplayMismatch(`replay: the loop asked the ${role} for ${wanted}, but the journal of ${this.script.episodeId} holds no more (turn ${this.turn})`);
  }

  readonly user: UserAgent = {
    plan: async (_ctx: AgentContext): Promise<Plan> => {
      const act = this.script.user[this.userAct];
      if (act?.kind !== "plan") return this.end("user", "a plan");
      this.userAct++;
      this.publish(act.llm);
      return act.plan;
    },
    instruct: async (turn: UserTurn, ctx: AgentContext): Promise<string> => {
      if (this.live && this.options.live?.user) {
        this.turn++;
        return this.options.live.user.instruct(turn, ctx);
      }
      const act = this.script.user[this.userAct];
      if (act?.kind !== "instruct") return this.end("user", `the instruction of request ${turn.request}`);
      this.userAct++;
      this.turn++;
      this.publish(act.llm);
      return act.text;
    },
    reply: async (question: string, turn: UserTurn, ctx: AgentContext): Promise<string> => {
      if (this.live && this.options.live?.user) {
        this.turn++;
        return this.options.live.user.reply(question, turn, ctx);
      }
      const act = this.script.user[this.userAct];
      if (act?.kind !== "reply") return this.end("user", "a reply");
      this.userAct++;
      this.turn++;
      this.publish(act.llm);
      return act.text;
    },
  };

  readonly assistant: AssistantAgent = {
    step: async (dialogue: readonly DialogueMessage[], tools: readonly AgentTool[], ctx: AgentContext): Promise<AssistantTurn> => {
      if (this.live && this.options.live?.assistant) {
        this.turn++;
        return this.options.live.assistant.step(dialogue, tools, ctx);
      }
      const act = this.script.assistant[this.assistantAct];
      if (!act) return this.end("assistant", "a step");
      this.assistantAct++;
      this.turn++;
      this.publish(act.llm);
      return act.turn;
    },
  };

  /** An executor that answers with the recorded results (the journal results mode). */
  readonly executor: ToolExecutor = {
    execute: async (call: AssistantToolCall, _state: EpisodeState, _ctx: AgentContext): Promise<ToolResult> => {
      const rec = this.calls.get(call.id)?.shift();
      if (!rec?.result) return this.end("executor", `the result of call ${call.id}`);
      this.publish(rec.llm);
      return rec.result;
    },
  };

  /** A tester that gives the recorded verdict (the journal results mode). */
  readonly tester: Tester = {
    judge: async (_episode: EpisodeTranscript, _ctx: AgentContext): Promise<Verdict> => {
      const v = this.script.verdict;
      if (!v) return this.end("tester", "a verdict");
      this.publish(v.llm);
      return v.verdict;
    },
  };
}
