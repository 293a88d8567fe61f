/*
 * Words that say yes or no: a judge model's answers (ToolEval's "Process correctness: yes", API-Bank's
 * "Verdict: pass"), and the words a yes/no value may be written as ("yes", "n", "1").
 */

/** First words of a judge's yes/no answer; `uncertain` entries are stems ("partially" is partial). */
export const JUDGE_ANSWERS = {
  yes: ["yes", "true", "correct", "y"],
  no: ["no", "false", "incorrect", "n"],
  uncertain: ["uncertain", "unsure", "unknown", "maybe", "partial"],
} as const;

/** First words of a judge's verdict. */
export const VERDICT_WORDS = {
  pass: ["pass", "passed", "accept", "accepted", "yes", "good", "correct"],
  fail: ["fail", "failed", "reject", "rejected", "no", "bad", "incorrect"],
  unsure: ["unsure", "uncertain", "unknown", "undecided"],
} as const;

/** The whole words a yes/no value may be written as. */
export const BOOLEAN_WORDS = {
  true: ["true", "yes", "y", "1"],
  false: ["false", "no", "n", "0"],
} as const;
