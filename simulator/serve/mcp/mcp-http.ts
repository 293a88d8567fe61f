import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { ErrorCode, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { McpBridge } from "./mcp-bridge.js";
import { createMcpServer } from "./mcp-server.js";
import { plainHeaders, plainRequest, type PlainRequest } from "./plain-request.js";
import { readStreamLimited } from "../../../specs/read-limited.js";

/** Options of the Streamable HTTP endpoint. */
export interface McpHttpOptions {
  /** The serve mode (for the server's instructions). */
  mode: string;
  /** Most live MCP sessions (default 1000): the least recently used one is closed past it. */
  maxSessions?: number;
  /** A session unused this long is closed when the next one starts (default 30 minutes). */
  idleMs?: number;
  /** Largest JSON-RPC request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Accept requests from any browser origin (serve `--cors`); otherwise only loopback origins. */
  anyOrigin?: boolean;
  /** A session ended (closed by its client, evicted or idle): its state can go. */
  onSessionClosed?: (sessionId: string) => void;
  /**
   * Answer plain `tools/call` and `tools/list` requests directly (default true): the SDK's transport and server
   * answer every other message, and answer these the same way, only slower (tests compare the two).
   */
  directToolCalls?: boolean;
  log?: (line: string) => void;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
}

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), { status, headers: { "content-type": "application/json", ...headers } });
}

const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

async function readLimited(req: Request, limit: number): Promise<{ ok: true; text: string } | { ok: false }> {
  const length = req.headers.get("content-length");
  if (length !== null) {
    // With a Content-Length the body is read in one go (@hono/node-server reads it straight from the socket).
    if (Number(length) > limit) return { ok: false };
    return { ok: true, text: await req.text() };
  }
  if (req.body === null) return { ok: true, text: "" };
  const bytes = await readStreamLimited(req.body, limit);
  return bytes === undefined ? { ok: false } : { ok: true, text: Buffer.from(bytes).toString("utf8") };
}

/**
 * MCP over Streamable HTTP (the SDK's web-standard transport, JSON responses): an `initialize` without a
 * session starts a session with its own MCP server and its own toolsim state (named by the MCP session id);
 * later requests carry `Mcp-Session-Id`. Malformed JSON-RPC gets a JSON-RPC error with a 4xx status; an
 * unknown session gets 404 (the client starts a new one); sessions are bounded in number and idle time.
 */
export class McpHttpEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly maxSessions: number;
  private readonly idleMs: number;
  private readonly bodyLimit: number;
  private readonly direct: boolean;
  private closed = false;

  constructor(
    private readonly bridge: McpBridge,
    private readonly options: McpHttpOptions,
  ) {
    this.maxSessions = options.maxSessions ?? 1000;
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.bodyLimit = options.bodyLimit ?? 1024 * 1024;
    this.direct = options.directToolCalls !== false;
  }

  /** The live MCP session ids, least recently used first. */
  get sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** Answers one HTTP request to the MCP endpoint. */
  handle = async (req: Request): Promise<Response> => {
    if (this.closed) return rpcError(503, -32000, "The server is shutting down");
    const origin = req.headers.get("origin");
    if (origin !== null && !this.options.anyOrigin && !LOOPBACK_ORIGIN.test(origin)) {
      return rpcError(403, -32000, `Forbidden: origin ${origin} is not allowed (serve --cors allows any origin)`);
    }
    const id = req.headers.get("mcp-session-id");
    if (id !== null) {
      const session = this.sessions.get(id);
      if (!session) return rpcError(404, -32001, "Session not found: it ended or never existed; start a new one with initialize");
      session.lastUsed = Date.now();
      // Most recently used last.
      this.sessions.delete(id);
      this.sessions.set(id, session);
      if (req.method !== "POST") return session.transport.handleRequest(req);
      // The body read here, in one go (the server's fast path), rather than streamed by the transport.
      const parsed = await this.readMessage(req);
      if (parsed instanceof Response) return parsed;
      if (this.direct && plainHeaders(req.headers)) {
        const plain = plainRequest(parsed.message);
        if (plain) return this.answerDirectly(id, plain, req.headers);
      }
      return session.transport.handleRequest(req, { parsedBody: parsed.message });
    }
    if (req.method !== "POST") {
      return rpcError(400, -32000, `Bad Request: ${req.method} /mcp needs an Mcp-Session-Id header (start a session with a POST of initialize)`, req.method === "GET" || req.method === "DELETE" ? {} : { allow: "GET, POST, DELETE" });
    }
    const parsed = await this.readMessage(req);
    if (parsed instanceof Response) return parsed;
    const message = parsed.message;
    const initialize = Array.isArray(message) ? message.some((m) => isInitializeRequest(m)) : isInitializeRequest(message);
    if (!initialize) return rpcError(400, -32000, "Bad Request: no Mcp-Session-Id header; the first request of a session must be initialize");
    return this.start(req, message);
  };

  /**
   * A plain `tools/call` or `tools/list` of a live session, answered as the SDK's server answers it in JSON
   * response mode (the result, or a JSON-RPC error from the code, message and data of what the handler threw),
   * without the transport's and the protocol layer's per-message work: the hot path of every MCP client. A list
   * page is serialized once and kept.
   */
  private async answerDirectly(sessionId: string, request: PlainRequest, headers: Headers): Promise<Response> {
    let body: string;
    try {
      if (request.method === "tools/list") {
        body = `{"result":${this.bridge.listJson(request.cursor)},"jsonrpc":"2.0","id":${JSON.stringify(request.id)}}`;
      } else {
        const result = await this.bridge.call(request.name, request.arguments, { session: sessionId, headers });
        body = JSON.stringify({ result, jsonrpc: "2.0", id: request.id });
      }
    } catch (e) {
      const error = (e ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
      const code = typeof error.code === "number" && Number.isSafeInteger(error.code) ? error.code : ErrorCode.InternalError;
      if (code === ErrorCode.InternalError) this.options.log?.(`toolsim serve: MCP ${request.method}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      const message = typeof error.message === "string" ? error.message : "Internal error";
      body = JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code, message, ...(error.data !== undefined ? { data: error.data } : {}) } });
    }
    return new Response(body, { status: 200, headers: { "content-type": "application/json", "mcp-session-id": sessionId } });
  }

  /** A POST's JSON-RPC message (size-limited, JSON-parsed), or the error response that refuses it. */
  private async readMessage(req: Request): Promise<{ message: unknown } | Response> {
    const read = await readLimited(req, this.bodyLimit);
    if (!read.ok) return rpcError(413, -32000, `Payload Too Large: the limit is ${this.bodyLimit} bytes`);
    try {
      return { message: JSON.parse(read.text) as unknown };
    } catch (e) {
      return rpcError(400, -32700, `Parse error: ${(e as Error).message}`);
    }
  }

  private async start(req: Request, message: unknown): Promise<Response> {
    this.sweep();
    let session: Session | undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      enableJsonResponse: true,
      maxRequestBodySize: this.bodyLimit,
      onsessioninitialized: (sid) => {
        if (session) this.sessions.set(sid, session);
      },
      onsessionclosed: (sid) => this.forget(sid),
    });
    const server = createMcpServer(this.bridge, {
      mode: this.options.mode,
      sessionOf: (sid) => sid ?? transport.sessionId ?? "mcp",
      onError: (e) => this.options.log?.(`toolsim serve: MCP: ${e.message}`),
    });
    session = { transport, server, lastUsed: Date.now() };
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.forget(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(req, { parsedBody: message });
  }

  /** Drops a session and its state. */
  private forget(id: string): void {
    if (!this.sessions.delete(id)) return;
    this.options.onSessionClosed?.(id);
  }

  /** Closes idle sessions, and the least recently used ones past the cap (room for one more). */
  private sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.sessions) {
      if (now - s.lastUsed > this.idleMs || this.sessions.size >= this.maxSessions) {
        this.forget(id);
        void s.server.close().catch(() => undefined);
        this.options.log?.(`toolsim serve: MCP session ${id} closed (${now - s.lastUsed > this.idleMs ? "idle" : `more than ${this.maxSessions} sessions`})`);
      } else break;
    }
  }

  /** Closes every session (their open streams end). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.sessions.entries()];
    this.sessions.clear();
    await Promise.all(
      all.map(async ([id, s]) => {
        this.options.onSessionClosed?.(id);
        await s.server.close().catch(() => undefined);
      }),
    );
  }
}
