import { afterEach, describe, expect, it } from "vitest";
import { ChatModelAssistant } from "../../../agents/assistant/chat-model-assistant.js";
import { LlmJudgeTester } from "../../../agents/tester/llm-judge-tester.js";
import { LlmResponder } from "../../../agents/executor/llm-responder.js";
import { LlmUser } from "../../../agents/user/llm-user.js";
import { OfflineChatModel } from "../../../agents/assistant/offline/offline-chat-model.js";
import { SimulatedExecutor } from "../../../agents/executor/simulated-executor.js";
import { schemaResponder } from "../../../specs/respond/schema-responder.js";
import { stateResponder } from "../../../specs/respond/state-responder.js";
import { EventBus } from "../../../simulator/core/event-bus.js";
import type { SimEvent } from "../../../simulator/core/events.js";
import { runEpisode } from "../../../simulator/core/run-episode.js";
import { startOpenAIServer, type OpenAIServer, type ReceivedRequest, type ScriptedReply } from "../../support/openai-server.js";
import { chatModelOn, fixtureToolset, messagesOf } from "../../support/llm-agent-fixtures.js";

let server: OpenAIServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One endpoint for every role: the scripted reply is chosen by the role's system prompt. */
function byRole(request: ReceivedRequest): ScriptedReply {
  const messages = messagesOf(request);
  const system = messages[0]?.content ?? "";
  const user = messages[1]?.content ?? "";
  if (system.startsWith("You play a user who asks")) {
    // An instruction that states every value the goal lists under "Say", in plain words.
    const says = [...user.matchAll(/Say: ([^(=\n]+?)(?: \([^\n]*\))? = (.+)/g)].map((m) => `${m[1]?.trim()} ${String(JSON.parse(m[2] ?? "null"))}`);
    const what = /Step 1: ([^\n]+)/.exec(user)?.[1] ?? "help";
    return { kind: "text", content: JSON.stringify({ instructions: [`${what.replace(/\.$/, "")}, please: ${says.join(", ")}.`] }) };
  }
  if (system.startsWith("You play the user in a conversation")) {
    const give = /Give: ([^\n]+)/.exec(user)?.[1] ?? "no preference";
    return { kind: "text", content: `Sure: ${give.replace(/"/g, "")}.` };
  }
  if (system.startsWith("You simulate one operation")) return { kind: "text", content: "not JSON at all" };
  if (system.startsWith("You review a dialogue")) return { kind: "text", content: '{"solvable": true, "process": "yes", "response": "yes", "verdict": "pass", "reason": "fine"}' };
  return { kind: "text", content: "?" };
}

describe("an episode with LLM user, executor and tester through ChatOpenAI", () => {
  it("runs to a verdict with every LLM role answering (or falling back) and never crashes", async () => {
    server = await startOpenAIServer(byRole);
    const model = chatModelOn(server);
    const forecast = await fixtureToolset("forecast");
    const events: SimEvent[] = [];
    const bus = new EventBus(() => new Date(0));
    bus.on("*", (e) => events.push(e));
    const outcome = await runEpisode(
      { runId: "llm-run", index: 0, runSeed: 11, level: "call", toolsets: [forecast] },
      {
        user: new LlmUser({ model }),
        assistant: new ChatModelAssistant(new OfflineChatModel()),
        executor: new SimulatedExecutor({ stages: { responders: [stateResponder, new LlmResponder({ model }), schemaResponder] } }),
        tester: new LlmJudgeTester({ model, k: 3, judgeAfterRuleFailure: true }),
      },
      bus,
    );
    expect(outcome.outcome).not.toBe("error");
    const systems = server.requests.map((r) => messagesOf(r)[0]?.content ?? "");
    expect(systems.some((s) => s.startsWith("You play a user who asks"))).toBe(true);
    expect(systems.filter((s) => s.startsWith("You review a dialogue"))).toHaveLength(3);
    const results = events.filter((e) => e.type === "tool.result");
    expect(results.length).toBeGreaterThan(0);
    // The executor's model answered garbage twice per call: every answer was replaced by the schema, and says so.
    for (const e of results) {
      if (e.type !== "tool.result") continue;
      if (e.result.status < 400) expect(e.result.notes[0]).toBe("llm answer invalid: replaced by schema");
      expect(e.result.responseErrors).toEqual([]);
    }
    const verdict = events.find((e) => e.type === "tester.verdict");
    expect(verdict?.type === "tester.verdict" ? verdict.verdict.stages.at(-1)?.stage : undefined).toBe("judge");
  });
});
