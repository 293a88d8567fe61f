import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadToolset } from "../../../toolsets/load-toolset.js";
import type { LoadedToolset } from "../../../toolsets/toolset.js";
import { Toolbox } from "../../../agents/roles/toolbox.js";
import { EpisodeState } from "../../../agents/roles/episode-state.js";
import { SimulatedExecutor } from "../../../agents/executor/simulated-executor.js";
import { RuleTester } from "../../../agents/tester/offline-tester.js";
import { checkConsistency } from "../../../agents/tester/consistency-check.js";
import type { AgentContext } from "../../../agents/roles/agent-context.js";
import type { AssistantToolCall, DialogueMessage } from "../../../agents/roles/dialogue.js";
import type { CallRecord, EpisodeTranscript } from "../../../agents/roles/roles.js";
import type { Plan } from "../../../agents/roles/plan.js";
import type { Responder } from "../../../specs/respond/responder.js";
import { createRng } from "../../../specs/seed.js";
import { reasonTemplate } from "../../../simulator/runs/run-summary.js";

// The tester's consistency stage, written as a checker: episodes whose answers contradict their calls (or the
// state the episode built) are rejected with the tool, the field, the argument and both values. The bad
// answers come from a responder forced to contradict, through the real executor.

type Json = Record<string, any>;

let shop: LoadedToolset;
beforeAll(async () => {
  const loaded = await loadToolset(fileURLToPath(new URL("../../fixtures/serve/world-shop.yaml", import.meta.url)));
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  shop = loaded.value;
});

function context(): AgentContext {
  return { runId: "run-test", episodeId: "ep-000000", index: 0, seed: 7, rng: createRng(7), level: "call", toolbox: new Toolbox([shop]) };
}

/** Runs calls through the executor (with the given responders first) and makes the transcript of an episode that ends with `final`. */
async function episode(calls: Array<[string, Json]>, final: string, forced: Responder[] = []): Promise<{ transcript: EpisodeTranscript; ctx: AgentContext }> {
  const ctx = context();
  const state = new EpisodeState([shop]);
  const executor = new SimulatedExecutor(forced.length > 0 ? { stages: { responders: [...forced, ...defaultResponders()] } } : {});
  const dialogue: DialogueMessage[] = [{ role: "user", content: "Please do what the calls do." }];
  const records: CallRecord[] = [];
  let i = 0;
  for (const [name, args] of calls) {
    const call: AssistantToolCall = { id: `call_${++i}`, name, arguments: args };
    const result = await executor.execute(call, state, ctx);
    dialogue.push({ role: "assistant", content: "", toolCalls: [call] }, { role: "tool", toolCallId: call.id, name, content: JSON.stringify(result.body), result });
    records.push({ call, result, request: 0, toolset: shop.name });
  }
  dialogue.push({ role: "assistant", content: final });
  const plan: Plan = { requests: [{ steps: calls.map(([tool, args]) => ({ toolset: shop.name, tool, args, links: [] })), withheld: [], style: "imperative" }] };
  return { transcript: { plan, dialogue, calls: records, ends: [{ kind: "final", text: final }] }, ctx };
}

function defaultResponders(): Responder[] {
  // The pipeline's own responders (state, then schema), after the forced one.
  return [stateResponderRef, schemaResponderRef];
}
let stateResponderRef: Responder;
let schemaResponderRef: Responder;
beforeAll(async () => {
  stateResponderRef = (await import("../../../specs/respond/state-responder.js")).stateResponder;
  schemaResponderRef = (await import("../../../specs/respond/schema-responder.js")).schemaResponder;
});

/** A responder that answers one tool with a fixed body (a contradiction on purpose). */
function forced(tool: string, body: unknown, status = 200): Responder {
  return { name: "forced", respond: (ctx) => (ctx.call.tool.name === tool ? { status, body, contentType: "application/json", source: "example" } : undefined) };
}

describe("consistency stage", () => {
  it("accepts an episode whose world holds together", async () => {
    const { transcript, ctx } = await episode([["getWeather", { city: "Amsterdam" }]], "It is mild in Amsterdam.");
    expect(checkConsistency(transcript, ctx)).toEqual([]);
  });

  it("rejects an answer that contradicts its call, naming tool, field, argument and both values", async () => {
    const lisbon = { location: { name: "Lisbon", country: "PT", latitude: 38.72, longitude: -9.14 }, temperature: 21.5 };
    const { transcript, ctx } = await episode([["getWeather", { city: "Amsterdam" }]], "It is 21.5 degrees in Amsterdam.", [forced("getWeather", lisbon)]);
    const verdict = await new RuleTester().judge(transcript, ctx);
    expect(verdict.accepted).toBe(false);
    expect(verdict.failedStage).toBe("consistency");
    const reasons = verdict.stages.find((s) => s.stage === "consistency")?.reasons ?? [];
    expect(reasons).toEqual(['calls[0] "getWeather": field "location.name" = "Lisbon" where argument "city" = "Amsterdam" (equals at /location/name)']);
    // The funnel keeps the tool, the field and the argument; the values go.
    expect(reasonTemplate(reasons[0] as string)).toBe('calls[N] "getWeather": field "location.name" = "…" where argument "city" = "…" (equals at /location/name)');
  });

  it("rejects an answer whose world does not hang together: the city asked for, placed in another country", async () => {
    const madridInGermany = { location: { name: "Madrid", country: "DE", latitude: 40.42, longitude: -3.7 }, temperature: 24 };
    const { transcript, ctx } = await episode([["getWeather", { city: "Madrid" }]], "It is 24 degrees in Madrid.", [forced("getWeather", madridInGermany)]);
    expect(checkConsistency(transcript, ctx)).toEqual(['calls[0] "getWeather": field "location.country" = "DE" where it should be "Spain" (entity)']);
  });

  it("rejects one id shown as two people, and accepts the same person logging in again", async () => {
    const as = (email: string, name: string) => ({ token: "tok-1", user: { id: "u-7f3a9c21", email, name } });
    /** Answers the login calls in turn with these bodies. */
    const inTurn = (...bodies: Json[]): Responder => {
      let n = 0;
      return { name: "forced", respond: (ctx) => (ctx.call.tool.name === "login" ? { status: 200, body: bodies[n++], contentType: "application/json", source: "example" } : undefined) };
    };
    const kim = { email: "kim@example.com", password: "pw" };
    const same = await episode([["login", kim], ["login", kim]], "ok", [inTurn(as("kim@example.com", "Kim Lee"), as("kim@example.com", "Kim Lee"))]);
    expect(checkConsistency(same.transcript, same.ctx)).toEqual([]);
    // A second answer about the same id that is someone else, though the call asked for kim again.
    const two = await episode([["login", kim], ["login", kim]], "ok", [inTurn(as("kim@example.com", "Kim Lee"), as("lee@example.com", "Lee Park"))]);
    expect(checkConsistency(two.transcript, two.ctx)).toContain('calls[1] "login": "user" "u-7f3a9c21" has email "lee@example.com" where calls[0] showed "kim@example.com" for that id');
  });

  it("rejects list items outside a filter and a cancel that does not cancel", async () => {
    const europe = [{ countryCode: "DE", name: "Germany", region: "Europe" }];
    const wrongRegion = await episode([["listCountries", { region: "Asia" }]], "Germany.", [forced("listCountries", europe)]);
    expect(checkConsistency(wrongRegion.transcript, wrongRegion.ctx)).toEqual(['calls[0] "listCountries": field "[].region" = "Europe" where argument "region" = "Asia" (filter at /0/region)']);
    const stillPending = { id: "ord-1", status: "pending", email: "a@example.com", items: [], subtotal: 0 };
    const cancel = await episode([["cancelOrder", { orderId: "ord-1" }]], "Done.", [forced("cancelOrder", stillPending)]);
    expect(checkConsistency(cancel.transcript, cancel.ctx)).toEqual(['calls[0] "cancelOrder": field "status" = "pending" where it should be "cancelled" (effect)']);
  });

  it("checks reads against what the episode wrote, and lines against the books it saw", async () => {
    const order = { email: "kim@example.com", items: [{ bookId: "bk-1", quantity: 1 }] };
    // A read of the created order that forgets it was cancelled.
    const real = await episode([["createOrder", order]], "ok");
    const id = (real.transcript.calls[0]?.result.body as Json).id as string;
    const staleRead = forced("getOrder", { ...(real.transcript.calls[0]?.result.body as Json), status: "pending" });
    const { transcript, ctx } = await episode([["createOrder", order], ["cancelOrder", { orderId: id }], ["getOrder", { orderId: id }]], "ok", [staleRead]);
    expect(checkConsistency(transcript, ctx)).toEqual([`calls[2] "getOrder": field "status" of "order" "${id}" = "pending" where calls[1] "cancelOrder" left it "cancelled"`]);
    // An order line priced unlike the book the episode read.
    const cheap = { id: "ord-7", status: "pending", email: "kim@example.com", items: [{ bookId: "bk-1", quantity: 1, title: "Harbour Lights", unitPrice: 1.5 }], subtotal: 1.5 };
    const priced = await episode([["getBook", { bookId: "bk-1" }], ["createOrder", order]], "ok", [forced("createOrder", cheap, 201)]);
    expect(checkConsistency(priced.transcript, priced.ctx)).toContain('calls[1] "createOrder": field "items[].unitPrice" = 1.5 where "/books/bk-1" (argument "items[].bookId") has "price" = 14.99 (reference at /items/0/unitPrice)');
  });

  it("checks the final answer's numbers against the observations it cites", async () => {
    const { transcript, ctx } = await episode([["getBook", { bookId: "bk-3" }]], "Salt and Saffron has a price of 24.50 dollars.");
    expect(checkConsistency(transcript, ctx)).toEqual(['requests[0] final answer: field "price" = 24.5 where calls[0] "getBook" has [29]']);
    const fine = await episode([["getBook", { bookId: "bk-3" }]], "Salt and Saffron has a price of 29.00 dollars.");
    expect(checkConsistency(fine.transcript, fine.ctx)).toEqual([]);
  });

  it("checks the final answer's words for a short field against the observations it cites", async () => {
    const { transcript, ctx } = await episode([["getOrder", { orderId: "ord-1001" }]], "Here is the order ord-1001: the status is delivered.");
    const observed = String((transcript.calls[0]?.result.body as Json)["status"]);
    expect(observed).not.toBe("delivered");
    expect(checkConsistency(transcript, ctx)).toEqual([`requests[0] final answer: field "status" = "delivered" where calls[0] "getOrder" has ["${observed.replace(/_/g, " ")}"]`]);
    const fine = await episode([["getOrder", { orderId: "ord-1001" }]], `Here is the order ord-1001: the status is ${observed.replace(/_/g, " ")}, as you asked.`);
    expect(checkConsistency(fine.transcript, fine.ctx)).toEqual([]);
  });
});
