import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { mountMcp, MCP_PATH, type McpServeOptions } from "./mcp/mount-mcp.js";
import { createServeApp, type ServeApp, type ServeOptions } from "./serve-app.js";
import { CoalescedResponse } from "./coalesced-response.js";

/** Options of a listening server: the app's options plus where to listen. */
export interface StartServeOptions extends ServeOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Default 4010 (Prism's); 0 picks a free port. */
  port?: number;
  /** Also answer MCP over Streamable HTTP at `/mcp` (one MCP session = one state session). */
  mcp?: boolean | McpServeOptions;
}

/** A listening simulated API server. */
export interface RunningServe {
  app: ServeApp;
  host: string;
  port: number;
  /** The server's base URL (`http://127.0.0.1:4010`). */
  url: string;
  /** The base URL of each served API. */
  apis: Array<{ name: string; title: string; operations: number; url: string }>;
  /** The MCP endpoint's URL (`http://127.0.0.1:4010/mcp`), when MCP is served. */
  mcpUrl?: string;
  /** Stops listening, ends open connections and pending fault delays, flushes the recording. */
  close(): Promise<void>;
}

/** How long requests in flight get to finish when the server stops. */
const GRACE_MS = 2000;

/** The default port (Prism's). */
export const DEFAULT_PORT = 4010;

function hostForUrl(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/** Starts a simulated API server (hono on @hono/node-server) and resolves once it listens. */
export async function startServe(options: StartServeOptions): Promise<RunningServe> {
  const host = options.host ?? "127.0.0.1";
  // The admin routes answer the name the server was bound to, besides loopback names and IP addresses.
  const app = createServeApp({ ...options, allowedHosts: [...(options.allowedHosts ?? []), host] });
  const mcp = options.mcp ? mountMcp(app, options, options.mcp === true ? {} : options.mcp) : undefined;
  const server = await new Promise<Server>((resolve, reject) => {
    // Responses ended in one turn of the event loop go out together (see coalesced-response.ts).
    const s = serve({ fetch: app.fetch, hostname: host, port: options.port ?? DEFAULT_PORT, serverOptions: { ServerResponse: CoalescedResponse } }) as Server;
    s.once("listening", () => resolve(s));
    s.once("error", reject);
  }).catch(async (e: unknown) => {
    await app.close();
    throw e;
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${hostForUrl(host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    app,
    host,
    port,
    url,
    apis: app.apis.map((a) => ({ name: a.name, title: a.title, operations: a.operations, url: `${url}${a.prefix}` })),
    ...(mcp ? { mcpUrl: `${url}${MCP_PATH}` } : {}),
    close() {
      closing ??= (async () => {
        // Stop accepting, let requests in flight finish (fault delays end at once), then flush the recording.
        app.abortPending();
        await mcp?.endpoint.close();
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => server.closeAllConnections(), GRACE_MS);
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
          server.closeIdleConnections();
        });
        await app.close();
      })();
      return closing;
    },
  };
}
