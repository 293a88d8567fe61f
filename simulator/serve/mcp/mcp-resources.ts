import { ErrorCode, type ReadResourceResult, type Resource } from "@modelcontextprotocol/sdk/types.js";
import { describeFunctions } from "../../../toolsets/build/describe-functions.js";
import { plainText } from "../../../toolsets/plain-text.js";
import { renderDocumentation, toolsetDocumentation } from "../../../toolsets/toolset-documentation.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import type { ServedApi } from "../serve-app.js";
import { ProtocolError } from "./protocol-error.js";

/** The URI scheme of toolsim's MCP resources: `toolsim://<api>/documentation`, `toolsim://<api>/openapi.json`. */
export const RESOURCE_SCHEME = "toolsim";

function documentationUri(api: string): string {
  return `${RESOURCE_SCHEME}://${api}/documentation`;
}

function specUri(api: string): string {
  return `${RESOURCE_SCHEME}://${api}/openapi.json`;
}

/** A plain spec's documentation as a toolset's: introduction and description from `info`, functions derived. */
function asToolset(api: ServedApi): LoadedToolset {
  if (api.toolset) return api.toolset;
  const info = (api.catalog.spec.document as { info?: { description?: unknown } }).info;
  const about = typeof info?.description === "string" ? plainText(info.description) : "";
  const intro = /^(.{10,200}?[.!?])(\s|$)/.exec(about)?.[1] ?? (about !== "" ? about.slice(0, 200) : `${api.catalog.title}: ${api.catalog.tools.length} operations.`);
  return {
    name: api.name,
    title: api.catalog.title,
    introduction: intro,
    description: about !== "" ? about : intro,
    functions: describeFunctions(api.catalog),
    functionsDerived: true,
    catalog: api.catalog,
    file: api.source ?? api.name,
  };
}

/** The resources of the served APIs: each one's documentation (as agents read it) and its OpenAPI document. */
export function listResources(apis: readonly ServedApi[]): Resource[] {
  return apis.flatMap((api) => [
    {
      uri: documentationUri(api.name),
      name: `${api.name}-documentation`,
      title: `${api.catalog.title}: documentation`,
      description: `Introduction, description, function documentation and tools of ${api.catalog.title} (${api.catalog.tools.length} operations).`,
      mimeType: "text/markdown",
    },
    {
      uri: specUri(api.name),
      name: `${api.name}-openapi`,
      title: `${api.catalog.title}: OpenAPI document`,
      description: `The OpenAPI document that ${api.catalog.title} is simulated from.`,
      mimeType: "application/json",
    },
  ]);
}

/** Reads one resource; an unknown URI is a protocol error naming the known ones. */
export function readResource(apis: readonly ServedApi[], uri: string): ReadResourceResult {
  for (const api of apis) {
    if (uri === documentationUri(api.name)) {
      const ts = asToolset(api);
      return { contents: [{ uri, mimeType: "text/markdown", text: renderDocumentation(toolsetDocumentation(ts)) }] };
    }
    if (uri === specUri(api.name)) {
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(api.catalog.spec.document, null, 2) }] };
    }
  }
  const known = listResources(apis).map((r) => r.uri);
  throw new ProtocolError(ErrorCode.InvalidParams, `Unknown resource: ${uri}; this server offers ${known.join(", ")}`, { uri });
}

/** The server's instructions for a client: what each API is for, that answers are simulated, where the documentation is. */
export function serverInstructions(apis: readonly ServedApi[], mode: string): string {
  const lines = apis.map((api) => {
    const intro = api.toolset?.introduction ?? asToolset(api).introduction;
    const title = api.catalog.title;
    return intro.toLowerCase().startsWith(title.toLowerCase()) ? intro : `${title}: ${intro}`;
  });
  const how =
    mode === "proxy"
      ? "Served by toolsim: every call is validated against the API's OpenAPI spec and forwarded to the real API."
      : "Served by toolsim: no real API is called; every call is validated against the API's OpenAPI spec and answered by a simulator, with state kept per MCP session.";
  const docs = apis.map((a) => documentationUri(a.name));
  return [...lines, "", `${how} Errors come back as tool results with problem details (isError). Documentation: the resource${docs.length === 1 ? "" : "s"} ${docs.join(", ")}.`].join("\n");
}
