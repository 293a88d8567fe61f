import type { AssistantToolCall, AssistantTurn } from "../../agents/roles/dialogue.js";
import type { Plan } from "../../agents/roles/plan.js";
import type { Verdict } from "../../agents/roles/verdict.js";
import type { ToolResult } from "../../specs/call/tool-result.js";
import type { EventPayloads, Party, SimEvent, SimEventOf } from "../core/events.js";

/*
 * A recorded episode read back as a script: what each scripted role said, in order, with the model calls
 * (`llm.call` events) it made before saying it. Replay hands the script to journal agents that say the same
 * things again, so the episode loop re-publishes the journal; fork switches to live agents at a turn.
 *
 * A *turn* is one act in the dialogue: a user instruction, a user reply, or one assistant step (its thought
 * and tool calls with their results, or a question, a final answer, a give-up). Turns are numbered from 0 in
 * the order they happened; the hidden plan comes before turn 0.
 */

/** The payload of an `llm.call` event with the parties it was published between. */
export interface RecordedLlmCall {
  from: Party;
  to: Party;
  payload: EventPayloads["llm.call"];
}

/** One scripted act of the user. */
export type UserAct =
  | { kind: "plan"; plan: Plan; llm: RecordedLlmCall[] }
  | { kind: "instruct"; request: number; text: string; llm: RecordedLlmCall[]; seq: number }
  | { kind: "reply"; text: string; llm: RecordedLlmCall[]; seq: number };

/** One recorded tool call with its recorded result (and the executor's model calls made for it). */
export interface RecordedCall {
  call: AssistantToolCall;
  result?: ToolResult;
  llm: RecordedLlmCall[];
}

/** One scripted assistant step. */
export interface AssistantAct {
  turn: AssistantTurn;
  /** The recorded calls of a `calls` turn, with their results. */
  calls: RecordedCall[];
  llm: RecordedLlmCall[];
  /** The seq of the step's first event (its first model call, thought, call, question or answer). */
  seq: number;
}

/** A turn of the dialogue: which role acted and where in the journal its events start. */
export interface ScriptTurn {
  role: "user" | "assistant";
  /** Index into `user` or `assistant`. */
  act: number;
  /** The seq of the turn's first event. */
  seq: number;
}

/** A recorded episode as a script. */
export interface EpisodeScript {
  episodeId: string;
  index: number;
  toolsets: string[];
  events: SimEvent[];
  user: UserAct[];
  assistant: AssistantAct[];
  turns: ScriptTurn[];
  verdict?: { verdict: Verdict; llm: RecordedLlmCall[] };
  /** How the episode ended; `error` episodes ended with a thrown reason, reproduced by the journal agents. */
  finished?: SimEventOf<"episode.finished">;
  /** Model calls recorded after the last scripted act (the calls of a role that then failed), by role. */
  trailingLlm: Map<Party, RecordedLlmCall[]>;
}

const HEADER_KEYS = new Set(["type", "runId", "episodeId", "seq", "at", "from", "to"]);

/** The payload of an event: its fields without the header. */
export function payloadOf<K extends SimEvent["type"]>(event: SimEventOf<K>): EventPayloads[K] {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(event)) if (!HEADER_KEYS.has(k)) out[k] = v;
  return out as unknown as EventPayloads[K];
}

/**
 * Reads one recorded episode (its events from `episode.started` to `episode.finished`) as a script. Assistant
 * steps are told apart by their thought, by the assistant's model calls and by any non-tool event between
 * them; two call steps recorded with neither a thought nor a model call between them read as one step (the
 * replay then reports the step count of `episode.finished` as a divergence).
 */
export function scriptOf(events: readonly SimEvent[]): EpisodeScript {
  const first = events[0];
  const started = first?.type === "episode.started" ? first : undefined;
  const script: EpisodeScript = {
    episodeId: first?.episodeId ?? "",
    index: started?.index ?? 0,
    toolsets: started?.toolsets ?? [],
    events: [...events],
    user: [],
    assistant: [],
    turns: [],
    trailingLlm: new Map(),
  };
  const pending = new Map<Party, RecordedLlmCall[]>();
  const take = (role: Party): RecordedLlmCall[] => {
    const list = pending.get(role) ?? [];
    pending.delete(role);
    return list;
  };
  const firstSeqOf = (list: readonly RecordedLlmCall[], fallback: number): number => (list.length > 0 ? Math.min(fallback, ...list.map((c) => (c as RecordedLlmCall & { seq?: number }).seq ?? fallback)) : fallback);
  let thought: { text: string; debug?: string; seq: number } | undefined;
  let open: AssistantAct | undefined;
  const byCallId = new Map<string, RecordedCall>();
  const addAssistant = (act: AssistantAct): void => {
    script.turns.push({ role: "assistant", act: script.assistant.length, seq: act.seq });
    script.assistant.push(act);
  };
  for (const e of events) {
    switch (e.type) {
      case "llm.call": {
        const rec: RecordedLlmCall & { seq: number } = { from: e.from, to: e.to, payload: payloadOf(e), seq: e.seq };
        const role = e.role;
        if (role === "assistant") open = undefined;
        const list = pending.get(role) ?? [];
        list.push(rec);
        pending.set(role, list);
        break;
      }
      case "user.plan":
        script.user.push({ kind: "plan", plan: e.plan, llm: take("user") });
        break;
      case "user.instruction": {
        open = undefined;
        const llm = take("user");
        const seq = firstSeqOf(llm, e.seq);
        script.turns.push({ role: "user", act: script.user.length, seq });
        script.user.push({ kind: "instruct", request: e.request, text: e.text, llm, seq });
        break;
      }
      case "user.reply": {
        open = undefined;
        const llm = take("user");
        const seq = firstSeqOf(llm, e.seq);
        script.turns.push({ role: "user", act: script.user.length, seq });
        script.user.push({ kind: "reply", text: e.text, llm, seq });
        break;
      }
      case "assistant.thought":
        open = undefined;
        thought = { text: e.text, ...(e.debug !== undefined ? { debug: e.debug } : {}), seq: e.seq };
        break;
      case "tool.call": {
        if (!open) {
          const llm = take("assistant");
          const seq = firstSeqOf(llm, thought?.seq ?? e.seq);
          open = { turn: { kind: "calls", thought: thought?.text ?? "", ...(thought?.debug !== undefined ? { debug: thought.debug } : {}), calls: [] }, calls: [], llm, seq };
          thought = undefined;
          addAssistant(open);
        }
        const rec: RecordedCall = { call: e.call, llm: [] };
        open.calls.push(rec);
        if (open.turn.kind === "calls") open.turn.calls.push(e.call);
        byCallId.set(e.call.id, rec);
        break;
      }
      case "tool.result": {
        const rec = byCallId.get(e.callId);
        if (rec && rec.result === undefined) {
          rec.result = e.result;
          rec.llm = take("executor");
        }
        break;
      }
      case "assistant.question":
      case "assistant.final":
      case "assistant.gave-up": {
        open = undefined;
        const llm = take("assistant");
        const seq = firstSeqOf(llm, thought?.seq ?? e.seq);
        const withThought = thought ? { thought: thought.text, ...(thought.debug !== undefined ? { debug: thought.debug } : {}) } : {};
        const turn: AssistantTurn =
          e.type === "assistant.question"
            ? { kind: "question", ...withThought, text: e.text }
            : e.type === "assistant.final"
              ? { kind: "final", ...withThought, text: e.text }
              : { kind: "give-up", ...withThought, reason: e.reason };
        thought = undefined;
        addAssistant({ turn, calls: [], llm, seq });
        break;
      }
      case "tester.verdict":
        open = undefined;
        script.verdict = { verdict: e.verdict, llm: take("tester") };
        break;
      case "episode.finished":
        script.finished = e;
        break;
      default:
        break;
    }
  }
  script.trailingLlm = pending;
  return script;
}
