/** The tester's stages, in order: a rejected episode names the first stage that failed. */
export type TesterStage = "format" | "execution" | "consistency" | "grounding" | "plan" | "judge";

/** One stage's outcome with its reasons. */
export interface StageVerdict {
  stage: TesterStage;
  pass: boolean;
  reasons: string[];
}

/** The tester's verdict on an episode. */
export interface Verdict {
  accepted: boolean;
  stages: StageVerdict[];
  /** The first failed stage, when rejected. */
  failedStage?: TesterStage;
}
