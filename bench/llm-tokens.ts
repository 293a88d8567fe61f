/**
 * Section `llm` (issue 4, item 7a):
 * `tokens`: executor prompt tokens per call, toolsim's `llm` responder prompt (the called operation's slice
 *           of the spec, the state and the request) against ToolAlpaca's simulator prompt (figure 11, the
 *           whole spec of the toolset), on ToolAlpaca's ten eval toolsets with their golden answers as the
 *           calls, counted with js-tiktoken (cl100k_base, ToolAlpaca's ChatGPT). Goal: at most 35% of
 *           ToolAlpaca's tokens. The ratio is ToolAlpaca's tokens over toolsim's (above 1: toolsim is smaller).
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { curlRequest, executorPrompt, promptTokens, toolAlpacaExecutorPrompt } from "../agents/executor/llm-responder.js";
import { bodyOf, toHttpRequest } from "../specs/call/http-request.js";
import { loadCatalog } from "../specs/catalog/load-catalog.js";
import type { ResponseContext } from "../specs/respond/responder.js";
import { ResourceStore } from "../specs/respond/resource-store.js";
import { validateCall, type ValidatedCall } from "../specs/call/validate-call.js";
import { ROOT } from "./paths.js";
import { formatRatio, median, note, printFigure } from "./stats.js";
import { isObject } from "../specs/json-object.js";

/** Parts of the section a filter can pick: `llm.tokens`. */
export const LLM_PARTS = ["tokens"] as const;

/** ToolAlpaca's eval toolsets (`Documentation` is the OpenAPI JSON, `Golden_Answers` the calls). */
const TOOLALPACA_EVAL = resolve(ROOT, "..", "shared", "corpora", "toolalpaca", "eval_simulated.json");

/** The share goal: toolsim's executor prompts at most this fraction of ToolAlpaca's. */
const GOAL_SHARE = 0.35;

interface EvalToolset {
  Name: string;
  Documentation: string;
  Golden_Answers?: Array<Array<{ Action?: string; Action_Input?: string }>>;
}

/**
 * The arguments of a golden step: JSON, where ToolAlpaca's placeholders for values from earlier results
 * (`${animeId from searchAnime}`) stand in as an id-like string.
 */
function goldenArguments(text: string): unknown {
  for (const candidate of [text, text.replace(/"?\$\{[^}]*\}"?/g, '"abc123"')]) {
    try {
      return JSON.parse(candidate);
    } catch {
      // the next form
    }
  }
  return undefined;
}

export async function benchPromptTokens(): Promise<void> {
  if (!existsSync(TOOLALPACA_EVAL)) {
    note(`llm.executor_prompt_tokens skipped: ${TOOLALPACA_EVAL} not found`);
    return;
  }
  const toolsets = JSON.parse(readFileSync(TOOLALPACA_EVAL, "utf8")) as EvalToolset[];
  const ours: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  let invalid = 0;
  let skipped = 0;
  for (const ts of toolsets) {
    let document: unknown;
    try {
      document = JSON.parse(ts.Documentation);
    } catch {
      note(`llm.tokens: ${ts.Name}: Documentation is not JSON; skipped`);
      continue;
    }
    const loaded = await loadCatalog(document as object, { label: `toolalpaca:${ts.Name}` });
    if (!loaded.ok) {
      note(`llm.tokens: ${ts.Name}: does not load (${loaded.errors[0]?.message ?? "?"}); skipped`);
      continue;
    }
    const catalog = loaded.value;
    const servers = isObject(document) && Array.isArray(document["servers"]) ? document["servers"] : [];
    const server = isObject(servers[0]) && typeof servers[0]["url"] === "string" ? servers[0]["url"] : "https://api.example.com";
    const mine: number[] = [];
    const peer: number[] = [];
    for (const answer of ts.Golden_Answers ?? []) {
      for (const step of answer) {
        // `getDetails` asks the user (no API call); `[Optional]` marks an optional golden step.
        const action = (step.Action ?? "").replace(/^\[optional\]\s*/i, "");
        if (action === "getDetails" || action === "retrievalDataFromFile") continue;
        const tool = catalog.tools.find((t) => t.operation.operationId === action) ?? catalog.get(action);
        const args = goldenArguments(step.Action_Input ?? "{}");
        if (!tool || !isObject(args)) {
          skipped++;
          continue;
        }
        const checked = validateCall(catalog, tool.name, args);
        let call: ValidatedCall;
        if (checked.ok) call = checked.value;
        else {
          // toolsim answers an invalid call without a model; counted anyway, with the raw arguments, to compare like with like.
          invalid++;
          call = { tool, args, body: bodyOf(tool, args), request: toHttpRequest(tool, args) };
        }
        const ctx: ResponseContext = { catalog, call, seed: 0, state: new ResourceStore() };
        const prompt = executorPrompt(ctx);
        const a = promptTokens([{ content: prompt.system }, { content: prompt.user }]);
        const b = promptTokens([{ content: toolAlpacaExecutorPrompt(ts.Name, document, curlRequest(call.request, server)) }]);
        mine.push(a);
        peer.push(b);
        ratios.push(b / a);
      }
    }
    if (mine.length === 0) continue;
    ours.push(...mine);
    theirs.push(...peer);
    note(`llm.tokens: ${ts.Name}: ${catalog.tools.length} operations, ${mine.length} calls, median toolsim ${median(mine)} vs ToolAlpaca ${median(peer)} tokens`);
  }
  if (ours.length === 0) {
    note("llm.executor_prompt_tokens skipped: no golden call could be read");
    return;
  }
  const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
  const share = sum(ours) / sum(theirs);
  printFigure("llm.executor_prompt_tokens", median(ours), median(ratios));
  note(
    `llm.executor_prompt_tokens: ${ours.length} calls on ${toolsets.length} toolsets (${invalid} invalid, counted with raw arguments; ${skipped} unreadable, skipped); ` +
      `median toolsim ${median(ours)} vs ToolAlpaca ${median(theirs)} tokens (cl100k_base); share ${(share * 100).toFixed(1)}% of ToolAlpaca's ` +
      `(goal <= ${GOAL_SHARE * 100}%: ${share <= GOAL_SHARE ? "met" : "NOT met"}); ratio ${formatRatio(sum(theirs) / sum(ours))} on totals`,
  );
}

export async function runLlm(parts: ReadonlySet<string>): Promise<void> {
  if (parts.has("tokens")) await benchPromptTokens();
}
