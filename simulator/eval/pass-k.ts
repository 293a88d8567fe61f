/** C(n, k), exactly for the small numbers of trials pass^k uses. */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** The estimate of pass^k for one task with c passes in n trials: the chance that k trials drawn all pass, C(c,k)/C(n,k). */
export function passHatK(n: number, c: number, k: number): number {
  if (k > n) return Number.NaN;
  return binomial(c, k) / binomial(n, k);
}

/** The estimate of pass@k for one task: the chance that at least one of k trials drawn passes, 1 - C(n-c,k)/C(n,k). */
export function passAtK(n: number, c: number, k: number): number {
  if (k > n) return Number.NaN;
  return 1 - binomial(n - c, k) / binomial(n, k);
}

/** Pass rate, pass^k and pass@k over tasks tried in several runs. */
export interface PassStats {
  tasks: number;
  /** Trials per task (the number of runs). */
  trials: number;
  /** Mean pass rate over all trials. */
  passRate: number;
  /** k -> mean pass^k over tasks (every k from 1 to the number of trials). */
  passHat: Record<number, number>;
  /** k -> mean pass@k over tasks. */
  passAt: Record<number, number>;
}

/**
 * Pass statistics from per-task outcomes: `outcomes[t][i]` is whether task t passed in run i. Tasks missing from
 * a run count as failed there; every task is tried as many times as there are runs.
 */
export function passStats(outcomes: ReadonlyArray<ReadonlyArray<boolean>>): PassStats {
  const tasks = outcomes.length;
  const trials = outcomes.reduce((m, o) => Math.max(m, o.length), 0);
  const passHat: Record<number, number> = {};
  const passAt: Record<number, number> = {};
  let passed = 0;
  for (const o of outcomes) passed += o.filter(Boolean).length;
  for (let k = 1; k <= trials; k++) {
    let hat = 0;
    let at = 0;
    for (const o of outcomes) {
      const c = o.filter(Boolean).length;
      hat += passHatK(trials, c, k);
      at += passAtK(trials, c, k);
    }
    passHat[k] = tasks === 0 ? 0 : hat / tasks;
    passAt[k] = tasks === 0 ? 0 : at / tasks;
  }
  return { tasks, trials, passRate: tasks * trials === 0 ? 0 : passed / (tasks * trials), passHat, passAt };
}
