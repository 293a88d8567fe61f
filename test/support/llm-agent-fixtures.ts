/** Shared set-up of the LLM agent tests: toolsets from the agent fixtures, contexts, and ChatOpenAI on the scripted server. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ChatOpenAI } from "@langchain/openai";
import type { AgentContext } from "../../agents/roles/agent-context.js";
import { Toolbox, type EpisodeToolset } from "../../agents/roles/toolbox.js";
import { buildCatalog, type Catalog } from "../../specs/catalog/catalog.js";
import { loadSpec } from "../../specs/load/load-spec.js";
import type { Fixtures } from "../../specs/respond/resource-store.js";
import { createRng, deriveSeed } from "../../specs/seed.js";
import type { OpenAIServer, ReceivedRequest } from "./openai-server.js";

const here = dirname(fileURLToPath(import.meta.url));
const AGENT_FIXTURES = join(here, "..", "fixtures", "agents");

/** The catalog of a spec of `test/fixtures/agents` (`forecast`, `library`). */
export async function fixtureCatalog(name: "forecast" | "library"): Promise<Catalog> {
  const loaded = await loadSpec(join(AGENT_FIXTURES, `${name}.openapi.yaml`));
  if (!loaded.ok) throw new Error(`${name}: ${loaded.errors.map((e) => e.message).join("; ")}`);
  return buildCatalog(loaded.value);
}

/** A toolset of a fixture spec, with optional fixtures (initial state). */
export async function fixtureToolset(name: "forecast" | "library", fixtures?: Fixtures): Promise<EpisodeToolset> {
  const catalog = await fixtureCatalog(name);
  return {
    name,
    title: catalog.title,
    introduction: "",
    description: name === "forecast" ? "Weather forecasts, places and air quality for travellers." : "A small lending library.",
    functions: "",
    catalog,
    ...(fixtures ? { fixtures } : {}),
  };
}

/** An agent context over toolsets. */
export function contextOver(toolsets: readonly EpisodeToolset[], index = 0, role = "user"): AgentContext {
  const seed = deriveSeed(7, index);
  return { runId: "test-run", episodeId: `ep-${index}`, index, seed, rng: createRng(deriveSeed(seed, role)), level: "call", toolbox: new Toolbox(toolsets) };
}

/** The real ChatOpenAI client pointed at the scripted server. */
export function chatModelOn(server: OpenAIServer): ChatOpenAI {
  return new ChatOpenAI({ model: "test", apiKey: "sk-test", configuration: { baseURL: server.baseURL }, maxRetries: 0 });
}

/** The messages of a received chat request. */
export function messagesOf(request: ReceivedRequest | undefined): Array<{ role: string; content: string }> {
  const messages = request?.body["messages"];
  if (!Array.isArray(messages)) return [];
  return messages.map((m: { role?: unknown; content?: unknown }) => ({ role: String(m.role), content: typeof m.content === "string" ? m.content : JSON.stringify(m.content) }));
}

/** The whole prompt text of a received chat request. */
export function promptOf(request: ReceivedRequest | undefined): string {
  return messagesOf(request).map((m) => m.content).join("\n");
}
