import { createRng, deriveSeed } from "../../specs/seed.js";
import type { AgentContext } from "../roles/agent-context.js";
import { planEpisode, type PlannerOptions } from "./offline-planner.js";
import type { Plan } from "../roles/plan.js";
import { composeReply } from "./reply-composer.js";
import { renderInstruction } from "./render-instruction.js";
import type { UserAgent, UserTurn } from "../roles/roles.js";

/** Options of the offline user: the planner's knobs. */
export type OfflineUserOptions = PlannerOptions;

/**
 * The deterministic user (no model): plans a hidden goal from the episode's toolbox, states it in
 * varied natural phrasings (question, imperative, first person) without tool names, sometimes holding
 * back a required value, and answers the assistant's questions from its plan.
 *
 * The plan's randomness comes from `ctx.rng`; the wording of an instruction is a function of the plan
 * (so a replayed or forked dialogue reads the same), and a reply a function of the plan, the episode
 * seed, the question and the dialogue so far.
 */
export class OfflineUser implements UserAgent {
  constructor(private readonly options: OfflineUserOptions = {}) {}

  async plan(ctx: AgentContext): Promise<Plan> {
    return planEpisode(ctx.toolbox, ctx.rng, { level: ctx.level, ...this.options });
  }

  async instruct(turn: UserTurn, ctx: AgentContext): Promise<string> {
    const request = turn.plan.requests[turn.request];
    if (!request) throw new RangeError(`the plan has no request ${turn.request}`);
    return renderInstruction(request, ctx.toolbox, turn.request);
  }

  async reply(question: string, turn: UserTurn, ctx: AgentContext): Promise<string> {
    const request = turn.plan.requests[turn.request];
    if (!request) return "Sorry, I have nothing else to ask for.";
    const rng = createRng(deriveSeed(ctx.seed, "user.reply", turn.request, turn.dialogue.length, question));
    return composeReply(question, request, ctx.toolbox, rng, turn.asks);
  }
}
