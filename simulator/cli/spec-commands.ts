import { Command } from "commander";
import { buildCatalog, type Catalog } from "../../specs/catalog/catalog.js";
import { checkSchemasCompile } from "../../specs/load/check-schemas-compile.js";
import { findSpecFiles } from "../../specs/load/find-spec-files.js";
import { loadCatalog } from "../../specs/catalog/load-catalog.js";
import { loadSpec } from "../../specs/load/load-spec.js";
import { ResourceStore, type Fixtures } from "../../specs/respond/resource-store.js";
import type { Responder } from "../../specs/respond/responder.js";
import { deriveSeed } from "../../specs/seed.js";
import { defaultStages, simulateCall } from "../../specs/call/simulate-call.js";
import { bindingsOf } from "../../specs/respond/bindings/bindings.js";
import { worldOf } from "../../specs/respond/world-settings.js";
import type { ValidationIssue } from "../../specs/call/problem-details.js";
import { formatProblem, type SpecProblem } from "../../specs/load/spec-problem.js";
import { synthesizeArguments } from "../../specs/synthesize/synthesize-call.js";
import { toOpenAIFunctions } from "../../specs/catalog/tool-schema.js";
import { loadToolset } from "../../toolsets/load-toolset.js";
import type { CliIO } from "./cli-io.js";
import { UsageError, UserError } from "./cli-io.js";
import { parseInteger, parseJsonOption } from "./options/parse-options.js";
import { behaviourResponders } from "../../toolsets/apibank/apibank-responder.js";
import type { HttpResponder } from "../../specs/respond/http-responder.js";
import type { ToolResponseSettings } from "../core/tool-responses.js";
import { apiNameOf } from "../serve/load-apis.js";
import { addToolResponseOptions, attachToolResponses, toolResponseSettings, type ToolResponseFlags } from "./options/tool-response-options.js";
import { withWorkBudgetOptions, workBudgetFromFlags, type WorkBudgetFlags } from "./options/work-budget-options.js";
import { BudgetExceeded, WorkBudget } from "../../specs/synthesize/work-budget.js";

/** Loads a catalog for a command, or fails with the spec's problems as a user error. */
export async function catalogOrFail(path: string): Promise<Catalog> {
  return (await worldOrFail(path)).catalog;
}

/**
 * A spec, or a toolset file (name, introduction, ..., openapi) with the world it starts from: its fixtures
 * (API-Bank's databases) and its own behaviour's responders. Fails with the spec's problems as a user error.
 */
export async function worldOrFail(path: string): Promise<{ catalog: Catalog; fixtures?: Fixtures; responders?: readonly Responder[] }> {
  const loaded = await loadCatalog(path);
  if (loaded.ok) return { catalog: loaded.value };
  if (loaded.errors.some((p) => p.code === "not-openapi")) {
    const toolset = await loadToolset(path);
    if (toolset.ok) return toolset.value;
    throw new UserError(toolset.errors.map(formatProblem).join("\n"));
  }
  throw new UserError(loaded.errors.map(formatProblem).join("\n"));
}

/** `toolsim spec check|tools|sample`. */
export function specCommand(io: CliIO, setExit: (code: number) => void): Command {
  const spec = new Command("spec").description("load, check and inspect OpenAPI documents");

  spec
    .command("check")
    .description("load every spec (files or folders) and report problems; never crashes on a bad spec")
    .argument("<paths...>", "spec files or folders of specs (.json, .yaml, .yml)")
    .option("--json", "one JSON object per spec")
    .option("--no-compile", "do not compile every schema the executor would use (faster; loading still repairs or rejects the known causes)")
    .action(async (paths: string[], opts: { json?: boolean; compile: boolean }) => {
      const files = await findSpecFiles(paths);
      if (files.length === 0) throw new UserError(`no spec files found in: ${paths.join(", ")}`);
      let failed = 0;
      let warned = 0;
      for (const file of files) {
        const loaded = await loadSpec(file);
        if (!loaded.ok) {
          failed++;
          if (opts.json) io.out(JSON.stringify({ file, ok: false, problems: loaded.errors }) + "\n");
          else io.out(`FAIL ${file}\n${loaded.errors.map((p) => "  " + formatProblem(p)).join("\n")}\n`);
          continue;
        }
        const s = loaded.value;
        let operations = 0;
        let unusable: SpecProblem[] = [];
        try {
          const catalog = buildCatalog(s);
          operations = catalog.tools.length;
          // What loading does not catch: every schema the executor would compile, compiled.
          if (opts.compile) unusable = checkSchemasCompile(catalog);
        } catch (e) {
          failed++;
          const problem = { file, pointer: "", message: `could not build tools: ${(e as Error).message}`, severity: "error", code: "catalog-failed" };
          io.out(opts.json ? JSON.stringify({ file, ok: false, problems: [problem] }) + "\n" : `FAIL ${file}\n  ${problem.message}\n`);
          continue;
        }
        if (unusable.length > 0) {
          failed++;
          const problems = [...unusable, ...s.warnings];
          if (opts.json) io.out(JSON.stringify({ file, ok: false, version: s.sourceVersion, operations, problems }) + "\n");
          else io.out(`FAIL ${file}\n${problems.map((p) => "  " + formatProblem(p)).join("\n")}\n`);
          continue;
        }
        if (s.warnings.length > 0) warned++;
        if (opts.json) {
          io.out(JSON.stringify({ file, ok: true, version: s.sourceVersion, operations, problems: s.warnings }) + "\n");
        } else {
          const w = s.warnings.length > 0 ? `, ${s.warnings.length} warning${s.warnings.length === 1 ? "" : "s"}` : "";
          io.out(`ok   ${file} (${s.sourceVersion === "2.0" ? "Swagger" : "OpenAPI"} ${s.sourceVersion}, ${operations} operation${operations === 1 ? "" : "s"}${w})\n`);
          for (const p of s.warnings) io.out(`  ${formatProblem(p)}\n`);
        }
      }
      if (!opts.json) io.out(`${files.length} spec${files.length === 1 ? "" : "s"}: ${files.length - failed} loaded (${warned} with warnings), ${failed} failed\n`);
      setExit(failed > 0 ? 1 : 0);
    });

  spec
    .command("tools")
    .description("list the tools derived from a spec's operations")
    .argument("<spec>", "spec file")
    .option("--json", "the tools in OpenAI function-calling form, exactly as a `tools` request field takes them")
    .option("--with-operations", "with --json: {tools, operations}, where operations maps each tool name to its operation and its bindings (what a request says about its response)")
    .action(async (path: string, opts: { json?: boolean; withOperations?: boolean }) => {
      if (opts.withOperations && !opts.json) throw new UsageError("--with-operations needs --json");
      const catalog = await catalogOrFail(path);
      if (opts.json) {
        const tools = toOpenAIFunctions(catalog);
        const out = opts.withOperations
          ? { tools, operations: Object.fromEntries(catalog.tools.map((t) => [t.name, { operationId: t.operation.operationId ?? null, method: t.operation.method, path: t.operation.path, bindings: bindingsOf(catalog, t) }])) }
          : tools;
        io.out(JSON.stringify(out, null, 2) + "\n");
        return;
      }
      const width = Math.max(4, ...catalog.tools.map((t) => t.name.length));
      io.out(`${catalog.title}: ${catalog.tools.length} tools\n`);
      for (const t of catalog.tools) {
        const req = t.required.length > 0 ? ` (requires ${t.required.join(", ")})` : "";
        io.out(`${t.name.padEnd(width)}  ${t.operation.method.toUpperCase().padEnd(6)} ${t.operation.path}  ${t.description}${req}\n`);
      }
    });

  const sample = spec
    .command("sample")
    .description("for every operation: a synthesized valid call and its simulated response")
    .argument("<spec>", "spec file")
    .option("--seed <n>", "random seed", "1")
    .option("--json", "JSON lines: {operation, request, response}");
  withWorkBudgetOptions(sample).action(async (path: string, opts: { seed: string; json?: boolean } & WorkBudgetFlags) => {
    const seed = parseInteger("--seed", opts.seed) ?? 1;
    const work = workBudgetFromFlags(opts);
    const catalog = await catalogOrFail(path);
    let rejected = 0;
    let invalid = 0;
    for (const tool of catalog.tools) {
      const budget = new WorkBudget(work);
      let args: Record<string, unknown>;
      try {
        args = synthesizeArguments(catalog, tool, { seed: deriveSeed(seed, tool.name, "args"), budget });
      } catch (err) {
        if (!(err instanceof BudgetExceeded)) throw err;
        rejected++;
        io.err(`toolsim: ${tool.name}: no call synthesized: ${err.message}\n`);
        continue;
      }
      const result = await simulateCall(catalog, { name: tool.name, arguments: args }, { seed, state: new ResourceStore(), budget });
      const line = {
        operation: { operationId: tool.operation.operationId ?? null, method: tool.operation.method, path: tool.operation.path },
        request: result.request ?? null,
        response: { status: result.status, contentType: result.contentType ?? null, body: result.body ?? null },
      };
      for (const note of budget.warnings) io.err(`toolsim: ${tool.name}: ${note}\n`);
      if (result.errors.length > 0) {
        rejected++;
        io.err(`toolsim: ${tool.name}: the synthesized call was rejected: ${describeIssues(result.errors)}\n`);
      } else if (result.source === "budget") {
        invalid++;
        io.err(`toolsim: ${tool.name}: ${(result.body as { detail?: string }).detail ?? "the request budget was used up"}\n`);
      } else if (result.responseErrors.length > 0) {
        invalid++;
        io.err(`toolsim: ${tool.name}: the response does not validate: ${describeIssues(result.responseErrors)}\n`);
      }
      if (opts.json) io.out(JSON.stringify(line) + "\n");
      else {
        io.out(`### ${tool.name}\n${describeRequest(result.request)}\n-> ${result.status} ${result.contentType ?? ""} (${result.source})\n`);
        if (result.body !== undefined) io.out(JSON.stringify(result.body, null, 2) + "\n");
        io.out("\n");
      }
    }
    const total = catalog.tools.length;
    if (rejected > 0) io.err(`toolsim: ${rejected} of ${total} synthesized call${total === 1 ? " was" : "s were"} rejected\n`);
    if (invalid > 0) io.err(`toolsim: ${invalid} of ${total} response${total === 1 ? "" : "s"} did not validate\n`);
    setExit(rejected > 0 || invalid > 0 ? 1 : 0);
  });

  return spec;
}

/** The first issues of a list, on one line: `query.q must match pattern "^a"; ...`. */
function describeIssues(issues: ValidationIssue[]): string {
  const shown = issues.slice(0, 3).map((i) => `${i.location.join(".")} ${i.message}`);
  return shown.join("; ") + (issues.length > 3 ? `; and ${issues.length - 3} more` : "");
}

function describeRequest(request: { method: string; path: string; query: Record<string, string | string[]>; body?: unknown } | undefined): string {
  if (!request) return "(no request)";
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(request.query)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
  const q = qs.toString();
  const body = request.body !== undefined ? `\n${JSON.stringify(request.body)}` : "";
  return `${request.method} ${request.path}${q ? "?" + q : ""}${body}`;
}

/** `toolsim call <spec> <tool>`: validates and simulates one call. */
export function callCommand(io: CliIO, setExit: (code: number) => void): Command {
  const call = new Command("call")
    .description("validate and simulate one tool call (or answer it from a recording or the real API); prints {status, body, errors, source, request}. On a toolset file the call meets its fixtures (the same world as generate, eval and serve)")
    .argument("<spec>", "spec file, or toolset file (started from its fixtures)")
    .argument("<tool>", "tool name (see `toolsim spec tools`)")
    .option("--args <json>", "arguments as a JSON object", "{}")
    .option("--seed <n>", "random seed", "1")
    .option("--status <code>", "ask for this response status instead of the default 2xx (it must be declared)")
    .option("--json", "compact JSON on one line");
  return withWorkBudgetOptions(addToolResponseOptions(call, false)).action(async (path: string, toolName: string, opts: { args: string; seed: string; status?: string; json?: boolean } & ToolResponseFlags & WorkBudgetFlags) => {
      const args = parseJsonOption("--args", opts.args);
      const seed = parseInteger("--seed", opts.seed) ?? 1;
      const status = parseInteger("--status", opts.status, 100);
      const budget = new WorkBudget(workBudgetFromFlags(opts));
      const responses = await toolResponseSettings(opts);
      const world = await worldOrFail(path);
      const catalog = world.catalog;
      const own = world.responders ?? behaviourResponders(catalog);
      const answers = responses ? await callResponders(path, catalog, responses, io) : undefined;
      // A toolset file starts from its fixtures (API-Bank's databases: a correct password gets a token).
      let state: ResourceStore | undefined;
      try {
        state = ResourceStore.fromFixtures(world.fixtures ?? {}, worldOf(catalog).limits);
      } catch (e) {
        throw new UserError(`${path}: its fixtures cannot start a state: ${(e as Error).message}`);
      }
      const result = await simulateCall(catalog, { name: toolName, arguments: args }, {
        seed,
        budget,
        ...(status !== undefined ? { status } : {}),
        ...(state ? { state } : {}),
        ...(answers?.replay ? { replay: answers.replay } : {}),
        ...(answers?.upstream ? { upstream: answers.upstream } : {}),
        ...(own.length > 0 ? { stages: { responders: [...own, ...defaultStages.responders] } } : {}),
      });
      const out = {
        status: result.status,
        body: result.body ?? null,
        errors: result.errors,
        source: result.source,
        request: result.request ?? null,
        // Only when the executor's own answer does not validate against the response schema (a bad spec).
        ...(result.responseErrors.length > 0 ? { responseErrors: result.responseErrors } : {}),
        // Synthesis caps the answer reached (the value is cut there).
        ...(budget.warnings.length > 0 ? { warnings: budget.warnings } : {}),
      };
      io.out((opts.json ? JSON.stringify(out) : JSON.stringify(out, null, 2)) + "\n");
      if (result.source === "budget") io.err(`toolsim: ${(result.body as { detail?: string }).detail ?? "the request budget was used up"}\n`);
      if (result.responseErrors.length > 0) io.err(`toolsim: the response does not validate against its schema: ${describeIssues(result.responseErrors)}\n`);
      const unreachable = answers?.upstream !== undefined && answers.upstream.stats.failures > 0;
      if (unreachable) io.err(`toolsim: ${answers.upstream?.stats.lastFailure ?? "the real API did not answer"}\n`);
      setExit(result.errors.length > 0 || result.responseErrors.length > 0 || unreachable || result.source === "budget" ? 1 : 0);
    });
}

/** The replay and real-API responders of one `call` (a single API: no per-toolset names). */
async function callResponders(path: string, catalog: Catalog, settings: ToolResponseSettings, io: CliIO): Promise<{ replay?: Responder; upstream?: HttpResponder }> {
  const named = [...(settings.replay ?? []), ...(settings.upstream ?? [])].find((s) => s.toolset !== undefined);
  if (named) throw new UsageError(`call answers one API: give --tool-cassette FILE and --upstream URL without a name= prefix (got ${named.toolset}=...)`);
  if ((settings.replay ?? []).length > 1 || (settings.upstream ?? []).length > 1) throw new UsageError("call takes one --tool-cassette and one --upstream");
  const attached = await attachToolResponses([{ name: apiNameOf(path), title: catalog.title, introduction: "", description: "", functions: "", catalog }], settings, io);
  const toolset = attached.toolsets[0];
  const responders = toolset?.responders ?? [];
  const upstream = [...attached.http.values()][0];
  const replay = responders.find((r) => r.name === "replay");
  return { ...(replay ? { replay } : {}), ...(upstream ? { upstream } : {}) };
}
