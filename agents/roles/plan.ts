/** Where a planned argument's value comes from an earlier step's result (a chain: search then get by id). */
export interface PlanLink {
  /** The argument filled from the earlier result. */
  arg: string;
  /** Index of the earlier step within the same request. */
  fromStep: number;
  /** Path of the value in the earlier result's body, e.g. `items.0.id` or `id`. */
  field: string;
}

/** One tool call the user wants made, with the argument values the user has in mind. */
export interface PlanStep {
  toolset: string;
  tool: string;
  args: Record<string, unknown>;
  links: PlanLink[];
}

/** The phrasing style of an instruction. */
export type InstructionStyle = "question" | "imperative" | "first-person";

/** One request the user makes in a dialogue (API-Bank: several requests per dialogue). */
export interface PlanRequest {
  steps: PlanStep[];
  /** Required arguments the user leaves out of the instruction and gives only when asked: `step:arg`. */
  withheld: string[];
  style: InstructionStyle;
  /** Index of the template that phrases it (for diversity statistics). */
  template?: number;
}

/** The user's hidden goal for an episode: the simulator and tester know it, the assistant never reads it. */
export interface Plan {
  requests: PlanRequest[];
}
