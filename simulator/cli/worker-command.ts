import { Command } from "commander";
import type { EventEmitter } from "node:events";
import { startQueueWorker } from "../queue/entry-points.js";
import type { QueueWorker } from "../queue/queue-worker.js";
import { parseRedisUrl } from "../queue/redis-url.js";
import { UsageError, UserError, type CliIO } from "./cli-io.js";
import { parseInteger } from "./options/parse-options.js";

interface WorkerFlags {
  queue?: string;
  concurrency?: string;
  toolsets?: string[];
  name?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  timeout?: string;
  retries?: string;
  llmConcurrency?: string;
  rpm?: string;
  lockMs?: string;
}

/**
 * `toolsim worker`: runs the episodes of distributed runs (`generate --queue`) from a Redis job queue until it is
 * stopped (Ctrl-C or SIGTERM: the episodes running finish first; a second signal stops at once, and their jobs go
 * to other workers once their locks expire).
 */
export function workerCommand(io: CliIO, setExit: (code: number) => void, signals: EventEmitter = process): Command {
  return new Command("worker")
    .description("run the episodes of distributed runs (generate --queue) from a Redis job queue, until stopped")
    .requiredOption("--queue <url>", "the runs' Redis, redis://HOST:PORT[/DB]")
    .option("--concurrency <k>", "episodes this worker runs at once, over all runs (default 4)")
    .option("--toolsets <paths...>", "toolset files or folders to serve runs from (default: the files a run names, and the bundled toolsets); a run's toolsets are matched by content")
    .option("--name <name>", "this worker's name in the coordinator's counts (default <host>:<pid>)")
    .option("--base-url <url>", "this worker's OpenAI-compatible endpoint for the runs' models (default: the run's)")
    .option("--api-key-env <name>", "environment variable holding this worker's API key (default: the run's, else OPENAI_API_KEY)")
    .option("--timeout <ms>", "timeout of one model call, in ms (default 60000)")
    .option("--retries <n>", "retries of a model call on 429, 5xx and timeouts (default 4)")
    .option("--llm-concurrency <n>", "model calls in flight per endpoint (default 8)")
    .option("--rpm <n>", "model requests per minute per endpoint")
    .option("--lock-ms <ms>", "how long an episode's job stays locked if this worker stops answering, before another worker retries it (default 30000)")
    .action(async (flags: WorkerFlags) => {
      const url = flags.queue ?? "";
      const parsed = parseRedisUrl(url);
      if (!parsed.ok) throw new UsageError(`--queue: ${parsed.errors.join("; ")}`);
      const rpm = flags.rpm === undefined ? undefined : Number(flags.rpm);
      if (rpm !== undefined && !(rpm > 0)) throw new UsageError(`--rpm must be a number > 0, got "${flags.rpm}"`);
      const endpoint = {
        ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
        ...(flags.apiKeyEnv !== undefined ? { apiKeyEnv: flags.apiKeyEnv } : {}),
        ...(flags.timeout !== undefined ? { timeoutMs: parseInteger("--timeout", flags.timeout, 1) as number } : {}),
        ...(flags.retries !== undefined ? { retries: parseInteger("--retries", flags.retries, 0) as number } : {}),
        ...(flags.llmConcurrency !== undefined ? { llmConcurrency: parseInteger("--llm-concurrency", flags.llmConcurrency, 1) as number } : {}),
        ...(rpm !== undefined ? { rpm } : {}),
      };
      let worker: QueueWorker;
      try {
        worker = await startQueueWorker({
          url,
          concurrency: parseInteger("--concurrency", flags.concurrency, 1) ?? 4,
          ...(flags.toolsets && flags.toolsets.length > 0 ? { toolsets: flags.toolsets } : {}),
          ...(flags.name !== undefined ? { name: flags.name } : {}),
          endpoint,
          ...(flags.lockMs !== undefined ? { lockMs: parseInteger("--lock-ms", flags.lockMs, 1000) as number } : {}),
          log: (line) => io.err(`${line}\n`),
        });
      } catch (e) {
        throw new UserError((e as Error).message);
      }
      await new Promise<void>((resolve) => {
        let signalled = 0;
        const onSignal = (): void => {
          signalled++;
          if (signalled === 1) {
            io.err(`toolsim worker ${worker.name}: stopping after the episodes running here (again to stop at once; other workers take them over)\n`);
            void worker.stop(false).then(resolve);
          } else {
            setExit(130);
            void worker.stop(true).then(resolve);
          }
        };
        signals.on("SIGINT", onSignal);
        signals.on("SIGTERM", onSignal);
        void worker.stopped.then(() => {
          signals.off("SIGINT", onSignal);
          signals.off("SIGTERM", onSignal);
          resolve();
        });
      });
    });
}
