import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A chat completion request as the server received it. */
export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** What the scripted server answers to one request. */
export type ScriptedReply =
  | { kind: "text"; content: string; usage?: { prompt: number; completion: number } }
  | { kind: "tool-calls"; calls: { name: string; arguments: string; id?: string }[]; content?: string }
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: "hang" }
  | { kind: "raw"; status: number; text: string };

/** Decides the reply to a request (a fixed script, or a function of the request). */
export type Script = (request: ReceivedRequest, index: number) => ScriptedReply | Promise<ScriptedReply>;

/** A local OpenAI-protocol server on 127.0.0.1 for tests: `/v1/chat/completions` and `/v1/models`. */
export interface OpenAIServer {
  /** Base URL including `/v1`, for ChatOpenAI's `configuration.baseURL`. */
  baseURL: string;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts the scripted server; `latencyMs` delays every answer (for throughput tests). */
export async function startOpenAIServer(script: Script | ScriptedReply[], options: { latencyMs?: number; model?: string } = {}): Promise<OpenAIServer> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let counter = 0;
  const decide: Script = Array.isArray(script)
    ? (_r, i) => script[Math.min(i, script.length - 1)] ?? { kind: "text", content: "" }
    : script;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = req.url ?? "/";
        if (req.method === "GET" && url.split("?")[0]?.endsWith("/models")) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ object: "list", data: [{ id: options.model ?? "test-model", object: "model", owned_by: "toolsim-tests" }] }));
          return;
        }
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
        } catch {
          res.writeHead(400, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: { message: "bad json" } }));
          return;
        }
        const received = { path: url, headers: req.headers, body };
        const index = counter++;
        requests.push(received);
        const reply = await decide(received, index);
        if (options.latencyMs) await new Promise((r) => setTimeout(r, options.latencyMs));
        if (reply.kind === "hang") {
          hanging.add(res);
          res.on("close", () => hanging.delete(res));
          return;
        }
        if (reply.kind === "status") {
          res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
          res.end(JSON.stringify(reply.body ?? { error: { message: `scripted ${reply.status}`, type: "server_error" } }));
          return;
        }
        if (reply.kind === "raw") {
          res.writeHead(reply.status, { "content-type": "application/json" });
          res.end(reply.text);
          return;
        }
        const message =
          reply.kind === "text"
            ? { role: "assistant", content: reply.content }
            : {
                role: "assistant",
                content: reply.content ?? null,
                tool_calls: reply.calls.map((c, i) => ({ id: c.id ?? `call_${index}_${i}`, type: "function", function: { name: c.name, arguments: c.arguments } })),
              };
        const usage = reply.kind === "text" && reply.usage ? reply.usage : { prompt: 10, completion: 5 };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${index}`,
            object: "chat.completion",
            created: 1700000000,
            model: String(body["model"] ?? options.model ?? "test-model"),
            choices: [{ index: 0, message, finish_reason: reply.kind === "tool-calls" ? "tool_calls" : "stop" }],
            usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
          }),
        );
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
