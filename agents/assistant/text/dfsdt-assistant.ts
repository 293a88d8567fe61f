import { stableStringify } from "../../../specs/stable-stringify.js";
import type { ToolResult } from "../../../specs/call/tool-result.js";
import type { AgentContext } from "../../roles/agent-context.js";
import type { AssistantTurn, DialogueMessage } from "../../roles/dialogue.js";
import type { AgentTool, AssistantAgent } from "../../roles/roles.js";
import { excerpt, uniqueCallIds } from "./text-protocol.js";

/*
 * DFSDT: ToolLLM's depth-first search-based decision tree (Qin et al. 2023, section 2.3 and appendix A.4/A.8),
 * as a strategy over any assistant step (native function calling, ReAct, API-Bank).
 *
 * The tree. For each user request the assistant keeps a tree whose root is the dialogue up to that request's
 * instruction. A node is one candidate turn of the inner assistant (calls, a question, a final answer or a
 * give-up) together with what came back for it (tool results, or the user's reply). As in ToolLLM, children
 * are generated lazily in pre-order: the first child is expanded first (so a search that never fails costs
 * what ReAct costs), and another child of a node is only sampled after the earlier ones failed — with a
 * "diversity" note listing those earlier tries (ToolLLM's diversity_user_prompt), so the model does
 * something different. A node has at most `width` children.
 *
 * A branch fails when the inner assistant gives up (ToolLLM's give_up_and_restart), when `maxFailures` turns
 * in a row got only error results (status >= 400), when it would grow beyond `maxDepth` turns, or when a
 * candidate repeats one that already failed at the same point. Then the search backtracks: the failed nodes
 * are marked, and the next candidate is sampled at the deepest ancestor that still has room for a child.
 * The search ends with a final answer (success), or gives up when the root's `width` children all failed or
 * when the request's budget of `maxCalls` inner steps is spent.
 *
 * How it maps onto the simulator's step-by-step loop (simulator/run-episode.ts), which owns the dialogue and
 * the episode's state and calls `step(dialogue, tools, ctx)` once per turn:
 *   1. Every `step` call first reads the messages the loop appended since the last call and attaches them to
 *      the node it emitted last: the echo of its turn plus the tool results (or the user's reply). After a
 *      final answer, the new messages start the next request's tree.
 *   2. It then judges that node (failures in a row, depth) and either expands it or backtracks — all inside
 *      this one `step` call, which may invoke the inner assistant several times (a give-up or a duplicate
 *      candidate is never shown to the loop: a give-up would end the episode).
 *   3. It returns exactly one turn: the next candidate to execute. The loop executes it as usual. Nothing is
 *      undone: state changes of an abandoned branch stay (ToolLLM says the same to its model: "state changes
 *      are irreversible"), and the loop's dialogue and journal keep the abandoned branch's calls too.
 *   4. Backtracking happens in what the inner assistant is shown. At node N it sees a *view* of the dialogue:
 *      the earlier requests' successful paths, the instruction, and only the messages of the path from the
 *      root to N — not the abandoned branches — plus, when N already has failed children, one extra user
 *      message, the diversity note, that lists them and why they failed ("previous trials").
 *   5. Only the final answer or the overall give-up ends the request for the loop. Every turn of the search
 *      is a loop step, so give the loop room: `maxSteps` of at least `maxCalls` (the loop's default of 8
 *      ends a long search with a budget end).
 * Call ids of emitted turns are made unique in the loop's dialogue (an inner assistant numbers calls from its
 * shorter view). The trees stay available through {@link DfsdtAssistant.treesOf} and
 * {@link DfsdtAssistant.trajectories} (failed vs successful trajectories, e.g. for preference data).
 */

/** A step function with the shape of {@link AssistantAgent.step}. */
export type AssistantStep = (dialogue: readonly DialogueMessage[], tools: readonly AgentTool[], ctx: AgentContext) => Promise<AssistantTurn>;

/**
 * Where a node stands: `pending` (sent to the loop, waiting for its results), `open` (results in, the
 * branch goes on), `succeeded` (on the path to the final answer), `failed` (abandoned; `reason` says why).
 */
export type DfsdtNodeStatus = "pending" | "open" | "succeeded" | "failed";

/** One candidate turn of the tree with what came back for it. */
export interface DfsdtNode {
  /** Index in {@link DfsdtTree.nodes}. */
  id: number;
  /** The parent node, undefined for a first turn after the instruction. */
  parent: number | undefined;
  /** 1 for a first turn after the instruction. */
  depth: number;
  turn: AssistantTurn;
  /** Whether the turn was sent to the loop (give-ups and duplicates are not). */
  emitted: boolean;
  /** Whether the candidate was sampled with the diversity note. */
  diversified: boolean;
  /** The messages the loop recorded for it: the echo of the turn, then its results or the user's reply. */
  messages: DialogueMessage[];
  status: DfsdtNodeStatus;
  /** Why the node failed. */
  reason?: string;
  children: number[];
}

/** The search tree of one user request. */
export interface DfsdtTree {
  /** The request's index among the episode's requests, as the assistant counted them. */
  request: number;
  /** What every node's view starts with: earlier requests' successful paths and this request's instruction. */
  base: DialogueMessage[];
  nodes: DfsdtNode[];
  /** The first turns (children of the root). */
  roots: number[];
  /** Inner steps spent (each is at least one model call). */
  calls: number;
  outcome: "searching" | "succeeded" | "gave-up";
  /** Why the search gave up. */
  reason?: string;
}

/** One root-to-leaf path of a tree, as the model saw it, with how it ended. */
export interface DfsdtTrajectory {
  request: number;
  /** Node ids from the first turn to the leaf. */
  path: number[];
  outcome: "succeeded" | "failed" | "open";
  reason?: string;
  /** The view of the dialogue: base, the path's messages, and the leaf's own turn. */
  messages: DialogueMessage[];
}

/** One earlier try at a point of the tree, as the diversity note lists it. */
export interface DfsdtTry {
  /** The try's first turn, in words (`getWeather {"city":"Paris"}`, `asked: ...`, `gave up: ...`). */
  action: string;
  /** Later turns of the same branch, in words. */
  then: string[];
  /** Why the branch failed. */
  reason: string;
}

/** Options of {@link DfsdtAssistant}. */
export interface DfsdtOptions {
  /** Candidates tried at one point of the tree (children per node; default 2, as ToolLLM's tree width). */
  width?: number;
  /** Turns on one branch (default 6). */
  maxDepth?: number;
  /** Turns in a row with only error results (status >= 400) that abandon a branch (default 2). */
  maxFailures?: number;
  /** Inner steps per request (each is at least one model call; default 16). */
  maxCalls?: number;
  /** The diversity note shown with earlier failed tries (default after ToolLLM's diversity_user_prompt). */
  hint?: (tries: readonly DfsdtTry[]) => string;
  /** Prefix the thought of a turn sampled after a backtrack with what failed (default true). */
  annotateThoughts?: boolean;
  /** Episodes whose trees are kept (default 256; the oldest go first). */
  keepEpisodes?: number;
}

/** Our wording of ToolLLM's diversity_user_prompt (appendix A.8), with each try's outcome. */
export function defaultDfsdtHint(tries: readonly DfsdtTry[]): string {
  return [
    "[Note from the search, not from the user] This is not your first try from this point: the earlier tries below failed, and what they changed cannot be undone.",
    ...tries.map((t, i) => `${i + 1}. ${t.action}${t.then.length > 0 ? `, then ${t.then.join(", then ")}` : ""} -> failed: ${t.reason}`),
    "Do something different from all of them (another tool, other arguments, or ask the user). If nothing else can work, give up with the reason.",
  ].join("\n");
}

interface EpisodeSearch {
  trees: DfsdtTree[];
  /** Loop dialogue messages accounted for. */
  seen: number;
  /** The node emitted last (waiting for its messages). */
  pending: { tree: DfsdtTree; node: DfsdtNode } | undefined;
}

function resultsOf(node: DfsdtNode): ToolResult[] {
  return node.messages.flatMap((m) => (m.role === "tool" ? [m.result] : []));
}

function describeResult(r: ToolResult): string {
  const body = r.body;
  const title = typeof body === "object" && body !== null && !Array.isArray(body) && typeof (body as Record<string, unknown>)["title"] === "string" ? ` ${(body as Record<string, unknown>)["title"] as string}` : "";
  return `${r.status}${title}`;
}

/** A turn in a few words, for notes and reasons. */
export function describeTurn(turn: AssistantTurn): string {
  switch (turn.kind) {
    case "calls":
      return turn.calls.map((c) => `${c.name} ${excerpt(typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments), 80)}`).join(" + ");
    case "question":
      return `asked: ${JSON.stringify(excerpt(turn.text, 80))}`;
    case "final":
      return `answered: ${JSON.stringify(excerpt(turn.text, 80))}`;
    case "give-up":
      return `gave up: ${JSON.stringify(excerpt(turn.reason, 100))}`;
  }
}

/** What makes two candidates the same (calls compared by name and arguments, ids aside). */
function signature(turn: AssistantTurn): string {
  switch (turn.kind) {
    case "calls":
      return `calls:${turn.calls.map((c) => `${c.name}(${typeof c.arguments === "string" ? c.arguments : stableStringify(c.arguments)})`).join("|")}`;
    case "question":
    case "final":
      return `${turn.kind}:${turn.text.trim().toLowerCase()}`;
    case "give-up":
      return `give-up:${turn.reason}`;
  }
}

/** The loop's echo of a turn that was never emitted (give-ups, duplicates), for trajectories. */
function syntheticMessages(turn: AssistantTurn): DialogueMessage[] {
  const thought = turn.thought !== undefined ? { thought: turn.thought } : {};
  switch (turn.kind) {
    case "calls":
      return [{ role: "assistant", content: "", ...thought, toolCalls: turn.calls }];
    case "give-up":
      return [{ role: "assistant", content: turn.reason, ...thought }];
    default:
      return [{ role: "assistant", content: turn.text, ...thought }];
  }
}

/**
 * DFSDT over any assistant: each `step` returns the next turn of a depth-first search over candidate turns,
 * backtracking away from branches that give up, keep failing or grow too deep (see the file comment for
 * how the search maps onto the simulator's loop). The trees stay inspectable per episode.
 */
export class DfsdtAssistant implements AssistantAgent {
  private readonly inner: AssistantStep;
  private readonly episodes = new Map<string, EpisodeSearch>();
  private readonly width: number;
  private readonly maxDepth: number;
  private readonly maxFailures: number;
  private readonly maxCalls: number;

  constructor(
    inner: AssistantAgent | AssistantStep,
    private readonly options: DfsdtOptions = {},
  ) {
    this.inner = typeof inner === "function" ? inner : (d, t, c) => inner.step(d, t, c);
    this.width = Math.max(1, options.width ?? 2);
    this.maxDepth = Math.max(1, options.maxDepth ?? 6);
    this.maxFailures = Math.max(1, options.maxFailures ?? 2);
    this.maxCalls = Math.max(1, options.maxCalls ?? 16);
  }

  /** The trees of an episode (one per request reached), or an empty list. */
  treesOf(episodeId: string, runId?: string): readonly DfsdtTree[] {
    return this.find(episodeId, runId)?.trees ?? [];
  }

  /** Every root-to-leaf path of an episode's trees with its outcome (failed vs successful trajectories). */
  trajectories(episodeId: string, runId?: string): DfsdtTrajectory[] {
    const out: DfsdtTrajectory[] = [];
    for (const tree of this.treesOf(episodeId, runId)) {
      for (const leaf of tree.nodes.filter((n) => n.children.length === 0)) {
        const path = pathTo(tree, leaf);
        const messages = [...tree.base];
        for (const n of path) messages.push(...(n.messages.length > 0 ? n.messages : syntheticMessages(n.turn)));
        const outcome = leaf.status === "succeeded" ? "succeeded" : leaf.status === "failed" ? "failed" : "open";
        out.push({ request: tree.request, path: path.map((n) => n.id), outcome, ...(leaf.reason !== undefined ? { reason: leaf.reason } : {}), messages });
      }
    }
    return out;
  }

  /** Drops an episode's trees. */
  forget(episodeId: string, runId?: string): void {
    for (const key of [...this.episodes.keys()]) if (matches(key, episodeId, runId)) this.episodes.delete(key);
  }

  async step(dialogue: readonly DialogueMessage[], tools: readonly AgentTool[], ctx: AgentContext): Promise<AssistantTurn> {
    const ep = this.episodeFor(ctx, dialogue);
    const fresh = dialogue.slice(ep.seen);
    ep.seen = dialogue.length;
    const pending = ep.pending;
    ep.pending = undefined;
    if (pending === undefined || pending.node.turn.kind === "final") {
      // A new request: its tree starts from the previous tree's successful path (or the whole dialogue).
      let base: DialogueMessage[];
      if (pending !== undefined) {
        pending.node.messages.push(...fresh.slice(0, 1));
        base = [...viewAt(pending.tree, pending.node), ...fresh.slice(1)];
      } else base = [...dialogue];
      const tree: DfsdtTree = { request: ep.trees.length, base, nodes: [], roots: [], calls: 0, outcome: "searching" };
      ep.trees.push(tree);
      return this.search(ep, tree, undefined, dialogue, tools, ctx, undefined);
    }
    const { tree, node } = pending;
    node.messages.push(...fresh);
    node.status = "open";
    // Judge the branch: failures in a row, then depth.
    const streak: DfsdtNode[] = [];
    for (let n: DfsdtNode | undefined = node; n !== undefined && failedObservation(n); n = n.parent === undefined ? undefined : tree.nodes[n.parent]) streak.push(n);
    if (streak.length >= this.maxFailures) {
      const top = streak[streak.length - 1]!;
      const last = resultsOf(node).map(describeResult).join(", ");
      const reason = `${streak.length} turns in a row got only errors (last: ${last})`;
      this.fail(tree, top, reason);
      return this.search(ep, tree, parentOf(tree, top), dialogue, tools, ctx, reason);
    }
    if (node.depth >= this.maxDepth) {
      const reason = `the branch reached the depth limit of ${this.maxDepth} turns without an answer`;
      this.fail(tree, node, reason);
      return this.search(ep, tree, parentOf(tree, node), dialogue, tools, ctx, reason);
    }
    return this.search(ep, tree, node, dialogue, tools, ctx, undefined);
  }

  /**
   * Samples candidates depth first from `at` (undefined: the root) until one can be emitted, backtracking
   * up the tree when a point has used its width.
   */
  private async search(
    ep: EpisodeSearch,
    tree: DfsdtTree,
    at: DfsdtNode | undefined,
    dialogue: readonly DialogueMessage[],
    tools: readonly AgentTool[],
    ctx: AgentContext,
    backtrackedBecause: string | undefined,
  ): Promise<AssistantTurn> {
    let cursor = at;
    let because = backtrackedBecause;
    for (;;) {
      const siblings = cursor === undefined ? tree.roots : cursor.children;
      if (siblings.length >= this.width) {
        const tries = siblings.map((id) => tree.nodes[id]!).map((n) => `${describeTurn(n.turn)} (${n.reason ?? n.status})`);
        if (cursor === undefined) return this.giveUp(tree, `all ${siblings.length} first steps failed: ${tries.join("; ")}`);
        const reason = `all ${siblings.length} continuations failed`;
        this.fail(tree, cursor, reason);
        because = `${describeTurn(cursor.turn)}: ${reason}`;
        cursor = parentOf(tree, cursor);
        continue;
      }
      if (tree.calls >= this.maxCalls) return this.giveUp(tree, `the search budget of ${this.maxCalls} model calls is spent (${tree.nodes.length} candidates, none answered)`);
      const failed = siblings.map((id) => tree.nodes[id]!).filter((n) => n.status === "failed");
      const view = viewAt(tree, cursor);
      if (failed.length > 0) view.push({ role: "user", content: (this.options.hint ?? defaultDfsdtHint)(failed.map((n) => tryOf(tree, n))) });
      tree.calls++;
      const turn = await this.inner(view, tools, ctx);
      const node: DfsdtNode = {
        id: tree.nodes.length,
        parent: cursor?.id,
        depth: (cursor?.depth ?? 0) + 1,
        turn,
        emitted: false,
        diversified: failed.length > 0,
        messages: [],
        status: "pending",
        children: [],
      };
      tree.nodes.push(node);
      siblings.push(node.id);
      if (turn.kind === "give-up") {
        node.status = "failed";
        node.reason = `gave up: ${turn.reason}`;
        because = node.reason;
        continue;
      }
      const sig = signature(turn);
      if (failed.some((f) => signature(f.turn) === sig)) {
        node.status = "failed";
        node.reason = "repeated an earlier failed try";
        because = `${describeTurn(turn)} repeated an earlier failed try`;
        continue;
      }
      // Emit it.
      let out: AssistantTurn = turn.kind === "calls" ? { ...turn, calls: uniqueCallIds(turn.calls, dialogue) } : turn;
      if (because !== undefined && this.options.annotateThoughts !== false) {
        const note = `(Search: backtracked after ${because}.)`;
        const thought = out.thought !== undefined && out.thought !== "" ? `${note} ${out.thought}` : note;
        out = { ...out, thought };
      }
      node.turn = out;
      node.emitted = true;
      if (out.kind === "final") {
        for (const n of pathTo(tree, node)) n.status = "succeeded";
        tree.outcome = "succeeded";
      }
      ep.pending = { tree, node };
      return out;
    }
  }

  /** Marks a node and the open nodes under it failed. */
  private fail(tree: DfsdtTree, node: DfsdtNode, reason: string): void {
    const stack = [node];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.status !== "failed") {
        n.status = "failed";
        n.reason = n === node ? reason : `an ancestor failed: ${reason}`;
      }
      stack.push(...n.children.map((id) => tree.nodes[id]!));
    }
  }

  private giveUp(tree: DfsdtTree, reason: string): AssistantTurn {
    tree.outcome = "gave-up";
    tree.reason = reason;
    return { kind: "give-up", reason: `DFSDT search failed: ${reason}` };
  }

  private episodeFor(ctx: AgentContext, dialogue: readonly DialogueMessage[]): EpisodeSearch {
    const key = `${ctx.runId}\u0000${ctx.episodeId}`;
    let ep = this.episodes.get(key);
    if (ep === undefined || dialogue.length < ep.seen) {
      ep = { trees: [], seen: 0, pending: undefined };
      this.episodes.delete(key);
      this.episodes.set(key, ep);
      const keep = Math.max(1, this.options.keepEpisodes ?? 256);
      while (this.episodes.size > keep) {
        const oldest = this.episodes.keys().next().value;
        if (oldest === undefined) break;
        this.episodes.delete(oldest);
      }
    }
    return ep;
  }

  private find(episodeId: string, runId?: string): EpisodeSearch | undefined {
    for (const [key, ep] of this.episodes) if (matches(key, episodeId, runId)) return ep;
    return undefined;
  }
}

function matches(key: string, episodeId: string, runId?: string): boolean {
  const [run, episode] = key.split("\u0000");
  return episode === episodeId && (runId === undefined || run === runId);
}

/** A node whose turn called tools and got only errors back. */
function failedObservation(node: DfsdtNode): boolean {
  const results = resultsOf(node);
  return node.turn.kind === "calls" && results.length > 0 && results.every((r) => r.status >= 400);
}

function parentOf(tree: DfsdtTree, node: DfsdtNode): DfsdtNode | undefined {
  return node.parent === undefined ? undefined : tree.nodes[node.parent];
}

/** The nodes from the first turn down to `node`. */
function pathTo(tree: DfsdtTree, node: DfsdtNode | undefined): DfsdtNode[] {
  const path: DfsdtNode[] = [];
  for (let n = node; n !== undefined; n = parentOf(tree, n)) path.unshift(n);
  return path;
}

/** What the inner assistant sees at a node: the tree's base and the messages of the path to the node. */
function viewAt(tree: DfsdtTree, node: DfsdtNode | undefined): DialogueMessage[] {
  const view = [...tree.base];
  for (const n of pathTo(tree, node)) view.push(...n.messages);
  return view;
}

/** A failed child as the diversity note lists it: its turn, the turns below it on its last path, why. */
function tryOf(tree: DfsdtTree, node: DfsdtNode): DfsdtTry {
  const then: string[] = [];
  let n = node;
  const results = resultsOf(node);
  const first = `${describeTurn(node.turn)}${results.length > 0 ? ` (${results.map(describeResult).join(", ")})` : ""}`;
  while (n.children.length > 0 && then.length < 3) {
    n = tree.nodes[n.children[n.children.length - 1]!]!;
    const r = resultsOf(n);
    then.push(`${describeTurn(n.turn)}${r.length > 0 ? ` (${r.map(describeResult).join(", ")})` : ""}`);
  }
  return { action: first, then, reason: node.reason ?? "failed" };
}
