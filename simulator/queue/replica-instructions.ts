import { RunInstructions, type RunInstructionsOptions } from "../../agents/llm/llm-run-instructions.js";
import { awaitTurn, type ReplicaHooks } from "./replica-waits.js";
import type { LogEntry } from "./state-log.js";

/**
 * A worker's replica of a distributed run's instructions (see {@link RunInstructions}): the decisions of the
 * worker's own episodes are taken here and written to the state log; those of other workers' episodes are
 * applied from the log, in the log's order. Every replica thus holds what one process would hold, and an
 * episode's choice waits for the earlier episodes' choices wherever they run.
 */
export class ReplicaInstructions extends RunInstructions {
  /** Above 0 while applying an entry (nothing is written back) or inside `add` (its own `pass` is not written). */
  private silent = 0;

  constructor(
    private readonly hooks: ReplicaHooks,
    options: RunInstructionsOptions = {},
  ) {
    super(options);
  }

  override turn(episode: number, request: number): Promise<void> {
    return awaitTurn(super.turn(episode, request), episode, this.hooks).done;
  }

  override add(episode: number, request: number, text: string, last = false): void {
    this.silent++;
    try {
      super.add(episode, request, text, last);
    } finally {
      this.silent--;
    }
    if (this.silent === 0) this.hooks.write(episode, { k: "add", i: episode, r: request, text, last });
  }

  override pass(episode: number, request: number, last = false): void {
    super.pass(episode, request, last);
    if (this.silent === 0) this.hooks.write(episode, { k: "ipass", i: episode, r: request, last });
  }

  /** Applies an entry of the state log written by the coordinator or another episode attempt. */
  apply(entry: LogEntry): void {
    this.silent++;
    try {
      switch (entry.k) {
        case "enter":
          this.enter(entry.i);
          break;
        case "load":
          if (entry.instructions) this.load(entry.instructions);
          break;
        case "add":
          this.add(entry.i, entry.r, entry.text, entry.last);
          break;
        case "ipass":
          this.pass(entry.i, entry.r, entry.last);
          break;
        case "finish":
          this.finish(entry.i);
          break;
        default:
          break;
      }
    } finally {
      this.silent--;
    }
  }
}
