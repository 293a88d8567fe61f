import { fail, ok, type Result } from "../../specs/result.js";
import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { addAuthScheme, authFromSpec, authNeed, describeNeed, schemeMeets, schemesMeeting, type AuthNeed } from "../import/auth-from-spec.js";
import { descriptionPrompt, functionsPrompt, openapiPrompt, repairPrompt, retryPrompt, type BuildMessage } from "./build-prompts.js";
import { parseFunctionDocs } from "../function-docs.js";
import { documentFromAnswer, plainAnswer } from "./model-document.js";
import type { PublicApi } from "../import/public-apis.js";
import type { ToolsetFile } from "../toolset.js";
import { checkToolsetData } from "../validate-toolset.js";

/** The stages of building a toolset from a name and an introduction (ToolAlpaca figures 5-7). */
export type BuildStage = "description" | "functions" | "openapi";

/** The model a build talks to: messages in, text out. Throws when the call fails for good. */
export interface BuildModel {
  complete(messages: BuildMessage[], context: { api: string; slug: string; stage: BuildStage }): Promise<string>;
}

/** Options of {@link buildToolset}. */
export interface BuildOptions {
  /** Repair turns per stage after the first answer (default 2). */
  repairs?: number;
  /** Where the toolset will be written (problems name this file). */
  file?: string;
}

/** A toolset the builder made, with what it took. */
export interface BuiltToolset {
  toolset: ToolsetFile;
  /** Warnings the checker left (none of them errors). */
  warnings: SpecProblem[];
  /** Model answers per stage (1 = right the first time). */
  answers: Record<BuildStage, number>;
  /** What the builder changed in the model's spec itself, e.g. a security scheme the API needs and the model left out. */
  fixes: string[];
}

/** Why an API could not be built. */
export interface BuildFailure {
  api: string;
  slug: string;
  stage: BuildStage;
  reason: string;
  /** Model answers spent on the failed stage. */
  answers: number;
  /** The checker's last problems (OpenAPI stage). */
  problems?: SpecProblem[];
}

/** Warnings worth a repair turn: the documentation and the spec disagree, or the simulator lacks what it needs. */
const REPAIRABLE = new Set(["function-not-in-spec", "operation-not-in-functions", "no-response-schema", "no-success-response", "id-not-returned", "operation-undocumented", "auth-not-declared"]);

const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The problem of a spec that does not require the credentials the API's public-apis `Auth` calls for. */
function authProblem(need: AuthNeed, file: string): SpecProblem {
  const how =
    need.kind === "bearer"
      ? "an http bearer (or oauth2) scheme"
      : need.header !== undefined
        ? `an apiKey scheme in the ${need.header} header`
        : "an apiKey scheme (in a header or the query)";
  return {
    file,
    pointer: "/openapi/components/securitySchemes",
    severity: "warning",
    code: "auth-not-declared",
    message: `the API needs ${describeNeed(need)}, but no operation requires it: declare ${how} in components.securitySchemes and a top-level security requirement for it`,
  };
}

/** A spec the checker accepted, with what the build still has to say about it. */
interface Checked {
  built: BuiltToolset;
  /** Problems worth a repair turn. */
  problems: SpecProblem[];
}

/**
 * Checks a toolset with the model's spec: the checker's errors, or the built toolset (its `auth` from the spec,
 * preferring a scheme that meets the API's need) with its warnings, a missing scheme among them.
 */
async function checkBuilt(
  toolset: ToolsetFile,
  file: string,
  slug: string,
  need: AuthNeed | undefined,
  answers: BuiltToolset["answers"],
  fixes: string[],
): Promise<{ ok: true; value: Checked } | { ok: false; errors: SpecProblem[] }> {
  const checked = await checkToolsetData(toolset, file);
  if (!checked.ok) return { ok: false, errors: checked.errors.filter((p) => p.severity === "error" || REPAIRABLE.has(p.code)) };
  const catalog = checked.value.catalog;
  const missing = need !== undefined && schemesMeeting(catalog, need).length === 0 ? authProblem(need, file) : undefined;
  const auth = authFromSpec(catalog, slug, need ? (s) => schemeMeets(need, s) : undefined);
  const out: ToolsetFile = { ...toolset };
  delete out.auth;
  if (auth) out.auth = auth;
  const warnings = [...checked.value.warnings.filter((w) => !(auth && w.code === "auth-missing")), ...(missing ? [missing] : [])];
  return { ok: true, value: { built: { toolset: out, warnings, answers, fixes }, problems: warnings.filter((w) => REPAIRABLE.has(w.code)) } };
}

/**
 * A built toolset whose spec still lacks the security scheme its API needs, with the scheme added and the
 * toolset checked again (`fixes` says so). Unchanged when nothing is missing or the fixed spec fails its check.
 */
async function addMissingAuth(checked: Checked, file: string, slug: string, need: AuthNeed | undefined): Promise<BuiltToolset> {
  const { built } = checked;
  if (need === undefined || !built.warnings.some((w) => w.code === "auth-not-declared") || typeof built.toolset.openapi !== "object") return built;
  const doc = structuredClone(built.toolset.openapi);
  const fix = addAuthScheme(doc, need);
  const again = await checkBuilt({ ...built.toolset, openapi: doc }, file, slug, need, built.answers, [...built.fixes, fix]);
  return again.ok && !again.value.built.warnings.some((w) => w.code === "auth-not-declared") ? again.value.built : built;
}

class StageFailed extends Error {
  constructor(
    readonly stage: BuildStage,
    message: string,
    readonly answers: number,
    readonly problems?: SpecProblem[],
  ) {
    super(message);
  }
}

async function ask(model: BuildModel, messages: BuildMessage[], ctx: { api: string; slug: string; stage: BuildStage }, answers: number): Promise<string> {
  try {
    return await model.complete(messages, ctx);
  } catch (e) {
    throw new StageFailed(ctx.stage, `the model call failed: ${(e as Error).message}`, answers);
  }
}

/**
 * Runs a text stage: asks, checks the answer, and on a bad answer asks again with the reason (at most
 * `repairs` times). Returns the accepted text and the number of answers it took.
 */
async function textStage(
  model: BuildModel,
  ctx: { api: string; slug: string; stage: BuildStage },
  first: BuildMessage[],
  check: (answer: string) => { text: string } | { reason: string },
  format: string,
  repairs: number,
): Promise<{ text: string; answers: number }> {
  const messages = [...first];
  for (let answers = 1; ; answers++) {
    const raw = await ask(model, messages, ctx, answers - 1);
    const checked = check(raw);
    if ("text" in checked) return { text: checked.text, answers };
    if (answers > repairs) throw new StageFailed(ctx.stage, checked.reason, answers);
    messages.push({ role: "assistant", content: raw }, retryPrompt(checked.reason, format));
  }
}

function checkDescription(answer: string): { text: string } | { reason: string } {
  const text = plainAnswer(answer, "Description").replace(/\s*\n\s*/g, " ").trim();
  if (text.length < 40) return { reason: text === "" ? "it is empty" : "it is too short to describe the API" };
  return { text };
}

function checkFunctions(answer: string): { text: string } | { reason: string } {
  const text = plainAnswer(answer, "Functions");
  const docs = parseFunctionDocs(text);
  if (docs.length === 0) return { reason: 'it has no "1. Name: <functionName>" blocks' };
  const bad = docs.filter((d) => !VALID_NAME.test(d.name)).map((d) => d.name);
  if (bad.length > 0) return { reason: `these names are not camelCase identifiers: ${bad.join(", ")}` };
  const names = docs.map((d) => d.name);
  const dup = names.filter((n, i) => names.indexOf(n) !== i);
  if (dup.length > 0) return { reason: `these names are used twice: ${[...new Set(dup)].join(", ")}` };
  const noInput = docs.filter((d) => d.input === undefined).map((d) => d.name);
  if (noInput.length > 0) return { reason: `the Input of ${noInput.join(", ")} is not one line of JSON` };
  return { text };
}

/**
 * Builds one toolset from a public-apis entry: description (figure 5), function documentation (figure 6),
 * then the OpenAPI document (figure 7), each answer checked. The spec is loaded by the OpenAPI core and
 * checked as a toolset (see `checkToolsetData`); errors and repairable warnings go back to the model, at most
 * `repairs` times. An API whose public-apis `Auth` is an API key or OAuth must end with a security scheme that
 * meets it and a matching toolset `auth`: the prompt asks for it, the check looks for it, a repair turn
 * includes it, and when the model still leaves it out it is added (recorded in `fixes`). A failure says at
 * which stage and why.
 */
export async function buildToolset(api: PublicApi, slug: string, model: BuildModel, options: BuildOptions = {}): Promise<Result<BuiltToolset, BuildFailure>> {
  const repairs = options.repairs ?? 2;
  const file = options.file ?? `${slug}.yaml`;
  const ctx = (stage: BuildStage): { api: string; slug: string; stage: BuildStage } => ({ api: api.name, slug, stage });
  try {
    const description = await textStage(model, ctx("description"), descriptionPrompt(api), checkDescription, "with the description paragraph only", repairs);
    const functions = await textStage(model, ctx("functions"), functionsPrompt(api, description.text), checkFunctions, 'in the "{index}. Name / Description / Input / Output" format only', repairs);
    const messages = openapiPrompt(api, description.text, functions.text);
    const need = authNeed(api.auth);
    for (let answers = 1; ; answers++) {
      const raw = await ask(model, messages, ctx("openapi"), answers - 1);
      const doc = documentFromAnswer(raw);
      let problems: SpecProblem[];
      let checked: Checked | undefined;
      if (!doc.ok) {
        problems = [{ file, pointer: "", severity: "error", code: "not-json", message: doc.errors.join("; ") }];
      } else {
        const toolset: ToolsetFile = {
          name: api.name,
          ...(api.category !== "" ? { category: api.category } : {}),
          introduction: api.introduction,
          description: description.text,
          ...(api.link !== "" ? { link: api.link } : {}),
          functions: functions.text,
          openapi: doc.value,
        };
        const result = await checkBuilt(toolset, file, slug, need, { description: description.answers, functions: functions.answers, openapi: answers }, []);
        if (result.ok) {
          checked = result.value;
          problems = result.value.problems;
        } else {
          problems = result.errors;
        }
      }
      if (checked && problems.length === 0) return ok(checked.built);
      // A missing security scheme alone is not worth a model call: it is added. Out of repairs, a spec without
      // errors is kept with its warnings (the scheme added if still missing); one with errors is a failure.
      if (checked && (answers > repairs || problems.every((p) => p.code === "auth-not-declared"))) return ok(await addMissingAuth(checked, file, slug, need));
      if (answers > repairs) {
        const errors = problems.filter((p) => p.severity === "error");
        const first = errors[0]?.message ?? problems[0]?.message ?? "unknown problem";
        throw new StageFailed("openapi", `the spec has ${errors.length} error${errors.length === 1 ? "" : "s"} after ${repairs} repair${repairs === 1 ? "" : "s"} (first: ${first})`, answers, problems);
      }
      messages.push({ role: "assistant", content: raw }, repairPrompt(problems));
    }
  } catch (e) {
    if (!(e instanceof StageFailed)) throw e;
    return fail([{ api: api.name, slug, stage: e.stage, reason: e.message, answers: e.answers, ...(e.problems ? { problems: e.problems } : {}) }]);
  }
}
