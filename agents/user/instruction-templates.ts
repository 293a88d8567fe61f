import type { InstructionStyle } from "../roles/plan.js";
import { beFor, capitalize } from "../language/words.js";

/** The pieces a template is filled with: the goal as a verb phrase, in the -ing form, and as a noun phrase. */
export interface TemplateSlots {
  /** `find recipes matching "curry" and show me the first one` (said to the assistant: "you"). */
  vp: string;
  /** The same goal in the user's own mouth (`see` rather than `show me`): for "I want to ...". */
  selfVp: string;
  /** `finding recipes matching "curry"`. */
  ing: string;
  /** `the daily forecast in Paris for 3 days`, for one read of one thing. */
  np?: string;
}

/** One way of wording a request. */
export interface InstructionTemplate {
  style: InstructionStyle;
  /** Needs a noun phrase (a single read such as "the forecast in Paris"). */
  needsNounPhrase: boolean;
  render(slots: TemplateSlots): string;
}

const vp = (f: (s: TemplateSlots) => string, style: InstructionStyle): InstructionTemplate => ({ style, needsNounPhrase: false, render: f });
const np = (f: (np: string) => string, style: InstructionStyle): InstructionTemplate => ({ style, needsNounPhrase: true, render: (s) => f(s.np ?? "") });

/** The templates of the offline user; a plan request stores the index of the one it uses. */
export const INSTRUCTION_TEMPLATES: readonly InstructionTemplate[] = [
  // Questions.
  vp((s) => `Can you ${s.vp}?`, "question"),
  vp((s) => `Could you ${s.vp}, please?`, "question"),
  vp((s) => `Would you mind ${s.ing}?`, "question"),
  vp((s) => `Is it possible to ${s.selfVp}?`, "question"),
  vp((s) => `Any chance you could ${s.vp}?`, "question"),
  vp((s) => `Hey, can you help me ${s.selfVp}?`, "question"),
  np((n) => `What ${beFor(n)} ${n}?`, "question"),
  np((n) => `Do you know ${n}?`, "question"),
  np((n) => `Can you tell me ${n}?`, "question"),
  // Imperatives.
  vp((s) => `${capitalize(s.vp)}.`, "imperative"),
  vp((s) => `Please ${s.vp}.`, "imperative"),
  vp((s) => `${capitalize(s.vp)}, please.`, "imperative"),
  vp((s) => `Go ahead and ${s.vp}.`, "imperative"),
  vp((s) => `Quick task: ${s.vp}.`, "imperative"),
  vp((s) => `Help me ${s.selfVp}.`, "imperative"),
  np((n) => `Tell me ${n}.`, "imperative"),
  np((n) => `Look up ${n} for me.`, "imperative"),
  // First person.
  vp((s) => `I want to ${s.selfVp}.`, "first-person"),
  vp((s) => `I'd like to ${s.selfVp}.`, "first-person"),
  vp((s) => `I need to ${s.selfVp}.`, "first-person"),
  vp((s) => `I'm trying to ${s.selfVp}. Can you take care of it?`, "first-person"),
  vp((s) => `I'm looking to ${s.selfVp}.`, "first-person"),
  vp((s) => `I was hoping you could ${s.vp}.`, "first-person"),
  vp((s) => `I need you to ${s.vp}.`, "first-person"),
  np((n) => `I'd like to know ${n}.`, "first-person"),
  np((n) => `I'm curious about ${n}.`, "first-person"),
];

/** The indexes of the templates of a style that fit a request (with or without a noun phrase). */
export function templatesFor(style: InstructionStyle, hasNounPhrase: boolean): number[] {
  const out: number[] = [];
  INSTRUCTION_TEMPLATES.forEach((t, i) => {
    if (t.style === style && (hasNounPhrase || !t.needsNounPhrase)) out.push(i);
  });
  return out;
}

/** Openers of a later request in the same dialogue (API-Bank: several requests per dialogue). */
export const FOLLOW_UP_OPENERS: readonly string[] = ["Thanks! ", "Great, thanks. ", "One more thing: ", "Also, ", "Next, ", "Perfect. Now, "];
