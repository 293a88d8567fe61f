import { isCredentialPlaceholder } from "../../agents/roles/credential-mask.js";
import { withoutArguments } from "../../agents/roles/toolbox.js";
import type { CorpusRecord, CorpusTurn } from "../runs/corpus-projection.js";

/*
 * A training example must not call a tool with an argument its tool list does not declare. The tools are
 * exported as the assistant was offered them — without the credential arguments the harness fills in (a
 * toolset's API key) — so exported calls leave those arguments out too.
 */

/**
 * The harness-supplied arguments of each call of an episode, by call id: those its journal marks (`supplied`),
 * and, for journals written before calls were marked, the credential arguments of the call's tool
 * (`credentialsOf`: argument -> the credential the harness passes) that hold that credential or a placeholder.
 */
export function suppliedArguments<R extends Pick<CorpusRecord, "steps">>(record: R, credentialsOf: (tool: string) => Readonly<Record<string, string>> | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const step of record.steps) {
    if (step.call.supplied && step.call.supplied.length > 0) {
      out.set(step.call.id, step.call.supplied);
      continue;
    }
    const credentials = credentialsOf(step.call.name);
    const args = step.call.arguments;
    if (!credentials || typeof args !== "object" || args === null) continue;
    const given = args as Record<string, unknown>;
    const names = Object.entries(credentials)
      .filter(([k, v]) => given[k] === v || isCredentialPlaceholder(given[k]))
      .map(([k]) => k);
    if (names.length > 0) out.set(step.call.id, names);
  }
  return out;
}

/** An episode whose dialogue's calls leave out the arguments the harness supplied (see {@link suppliedArguments}). */
export function withoutSuppliedArguments<R extends Pick<CorpusRecord, "steps" | "dialogue">>(record: R, credentialsOf: (tool: string) => Readonly<Record<string, string>> | undefined): R {
  const supplied = suppliedArguments(record, credentialsOf);
  if (supplied.size === 0) return record;
  const dialogue = record.dialogue.map((t): CorpusTurn => {
    if (t.role !== "assistant" || !t.toolCalls || t.toolCalls.length === 0) return t;
    return { ...t, toolCalls: t.toolCalls.map((c) => withoutArguments(c, supplied.get(c.id) ?? [])) };
  });
  return { ...record, dialogue };
}
