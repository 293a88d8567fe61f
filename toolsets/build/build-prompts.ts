import type { SpecProblem } from "../../specs/load/spec-problem.js";
import { authNeed } from "../import/auth-from-spec.js";
import type { PublicApi } from "../import/public-apis.js";

/** A chat message of a construction prompt. */
export interface BuildMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/*
 * The toolset-construction prompts. They follow ToolAlpaca's appendix (figure 5: description, figure 6:
 * function documentation, figure 7: OpenAPI specification) and fix what those leave open:
 *   - a system message per stage and an explicit answer format (no prose around the answer, one fenced JSON
 *     block for the spec), so answers parse without guessing;
 *   - the function names are the operationIds and the Input keys are exactly the arguments, so documentation
 *     and spec can be checked against each other;
 *   - ids the user cannot know must be returned by another function, under the same name (the figure 6/7
 *     rule, made checkable), and credentials stay out of the inputs (they travel in a security scheme);
 *   - every operation has a summary and a 200 response with a JSON schema, so a simulator can answer it;
 *   - a fixed OpenAPI version (3.0.3), no tags, no external $refs, servers on example.com (no real network);
 *   - a repair turn that quotes the checker's problems (file pointer + message) and asks for the whole
 *     document again.
 * The one-shot example is our own, invented API (ToolAlpaca's uses a real one).
 */

const DESCRIPTION_SYSTEM = "You write documentation for web APIs. You answer with the requested text only: no headings, no markdown, no preamble.";

/** Figure 5, improved: from name, link, category and introduction to a description paragraph. */
export function descriptionPrompt(api: PublicApi): BuildMessage[] {
  return [
    { role: "system", content: DESCRIPTION_SYSTEM },
    {
      role: "user",
      content: `Write a detailed description of the API below.

Guidelines:
1. Start with a general overview: what the API does and who uses it.
2. Then list its features as "It provides the following functions: 1) ... 2) ...". Each feature does one distinct thing, with little overlap with the others. Three to eight features.
3. Only describe what fits the introduction; do not invent pricing, rate limits or account details.
4. Plain, concise language, at most 200 words, one paragraph.

Example
Name: Tide Tables
Link: https://tides.example.com/docs
Category: Science & Math
Introduction: Tide predictions for coastal stations
Description: The Tide Tables API gives tide predictions for coastal measuring stations, for sailors, anglers and coastal planners who need to know when the water is high or low. It provides the following functions: 1) Search stations by name or by coordinates. 2) Get the high and low tides of a station for a date range. 3) Get the predicted water level of a station at a given time. 4) Get the details of a station, such as its location and time zone.

Now the API:
Name: ${api.name}
Link: ${api.link || "(none)"}
Category: ${api.category || "(none)"}
Introduction: ${api.introduction}
Description:`,
    },
  ];
}

const FUNCTIONS_SYSTEM = "You design the functions of web APIs and document them in a fixed plain-text format. You answer with the documentation only.";

/** Figure 6, improved: from the description to function documentation in the toolset format. */
export function functionsPrompt(api: PublicApi, description: string): BuildMessage[] {
  return [
    { role: "system", content: FUNCTIONS_SYSTEM },
    {
      role: "user",
      content: `Design the functions of the API below and document them.

Guidelines:
1. One function per feature of the description, two to eight functions. Do not add functions the description does not call for.
2. Function names are camelCase verbs plus nouns (searchStations, getStation); they become the operationIds of the API, so each name is unique and uses only letters and digits.
3. Input is one line of JSON: each key is an argument name exactly as the API will take it, and its value says "Required" or "Optional", the type (String, Integer, Number, Boolean, Array, Object) and what it is, e.g. {"stationId": "Required. String. The id of the station, from searchStations.", "date": "Optional. String. Day in YYYY-MM-DD; today when omitted."}. Use {} for no input.
4. No function returns everything at once (no getAllXxx): lists take filters, a page or a limit.
5. If a function needs a value the user cannot know (an id, an internal code), another function must return it under the same name, e.g. searchStations returns stationId for getStation. Say in the input's description which function gives it.
6. Credentials (API keys, tokens) are not inputs; they are sent by the client separately.
7. Output names the fields the function returns.

Format, for each function:
{index}. Name: {function name}
   Description: {what it does, one sentence}
   Input: {one line of JSON}
   Output: {the fields it returns}

Name: ${api.name}
Link: ${api.link || "(none)"}
Description: ${description}
Functions:`,
    },
  ];
}

const OPENAPI_SYSTEM = "You write OpenAPI 3.0.3 documents. You answer with one JSON document in a ```json fenced block and nothing else.";

/** Figure 7, improved: from the description and function documentation to an OpenAPI 3.0.3 document. */
export function openapiPrompt(api: PublicApi, description: string, functions: string): BuildMessage[] {
  const need = authNeed(api.auth);
  const auth =
    need === undefined
      ? ""
      : need.kind === "bearer"
        ? "\n8. The API needs OAuth: declare an http bearer security scheme in components.securitySchemes and a top-level security requirement for it. Do not add the token as a parameter."
        : need.header !== undefined
          ? `\n8. The API needs an API key in the ${need.header} header: declare an apiKey security scheme in components.securitySchemes with "in": "header" and "name": "${need.header}", and a top-level security requirement for it. Do not add the key as a parameter.`
          : "\n8. The API needs an API key: declare an apiKey security scheme in components.securitySchemes (in a header or the query) and a top-level security requirement for it. Do not add the key as a parameter.";
  return [
    { role: "system", content: OPENAPI_SYSTEM },
    {
      role: "user",
      content: `Write the OpenAPI 3.0.3 document of the API below, as JSON.

Guidelines:
1. "openapi": "3.0.3"; info with title (the API's name), version and a one-sentence description; servers: [{"url": "https://api.example.com"}] with the API's name in the host instead of "api" is fine, but always on example.com. No "tags".
2. One operation per function of the documentation, and no others. The operationId is exactly the function's name. Each operation has a short "summary" and a "description".
3. The arguments of a function are exactly its Input keys: path parameters for ids in REST paths (/stations/{stationId}), query parameters for filters of GET operations, and a JSON requestBody (application/json, an object schema with properties and required) for POST, PUT and PATCH. Mark required ones as required. Every parameter and body property has a "description" and a schema with a type; use "enum" for closed sets of values, "format" (date, date-time, uri, email) where it applies, and "example" for realistic values.
4. Every operation has a "200" (or "201" for creation) response with an application/json schema that details every field of the function's Output (types, descriptions, nested object properties and array items), and a "4XX" or specific error response (400, 404) with an Error schema. Put shared schemas under components/schemas and refer to them with "#/components/schemas/..." refs only.
5. If an operation takes an id the user cannot know, some other operation (a search, list or create) returns it under the same property name, or as "id" of items of the same resource.
6. Objects always list their "properties"; arrays always have "items".
7. Plain JSON: no comments, no trailing commas, no "$ref" to other files or URLs.${auth}

Name: ${api.name}
Link: ${api.link || "(none)"}
Description: ${description}
Functions:
${functions}

OpenAPI document (one \`\`\`json block):`,
    },
  ];
}

/** The problems of an answer as a list for the model, pointers relative to the OpenAPI document. */
export function problemList(problems: readonly SpecProblem[], max = 20): string {
  const lines = problems.slice(0, max).map((p) => {
    const pointer = p.pointer.startsWith("/openapi") ? p.pointer.slice("/openapi".length) : p.pointer;
    return `- ${p.severity} at ${pointer === "" ? "(document)" : pointer}: ${p.message}`;
  });
  if (problems.length > max) lines.push(`- ... and ${problems.length - max} more`);
  return lines.join("\n");
}

/** The repair turn of the OpenAPI stage: the checker's problems, and a request for the whole corrected document. */
export function repairPrompt(problems: readonly SpecProblem[]): BuildMessage {
  return {
    role: "user",
    content: `The document you wrote does not pass the checker. Problems (JSON pointers into the document):
${problemList(problems)}

Fix every problem and answer with the whole corrected OpenAPI 3.0.3 document, as one \`\`\`json block and nothing else.`,
  };
}

/** The retry turn of a text stage whose answer could not be used. */
export function retryPrompt(reason: string, format: string): BuildMessage {
  return { role: "user", content: `Your answer cannot be used: ${reason}. Answer again, ${format}.` };
}
