import { join } from "node:path";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { AIMessage, createAgent, fakeModel, ToolMessage } from "langchain";
import { afterEach, describe, expect, it } from "vitest";
import { loadServedApis } from "../../../../simulator/serve/load-apis.js";
import type { ServedApi } from "../../../../simulator/serve/serve-app.js";
import { startServe, type RunningServe } from "../../../../simulator/serve/start-serve.js";
import { bundledToolsetsDir } from "../../../../toolsets/load-toolset.js";

// LangChain's MCP adapters load toolsim's MCP tools over Streamable HTTP, and a LangChain agent (createAgent with
// a scripted fake model) calls them: the answers come from the simulated bookstore, its state kept per MCP session.

const running: RunningServe[] = [];
const clients: MultiServerMCPClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function bookstore(): Promise<ServedApi> {
  const loaded = await loadServedApis([join(bundledToolsetsDir(), "bookstore.yaml")]);
  if (!loaded.ok) throw new Error("bookstore does not load");
  return loaded.apis[0] as ServedApi;
}

describe("serve --mcp-http with @langchain/mcp-adapters", () => {
  it("loads every tool with its schema, and a LangChain agent calls them against the simulated API", async () => {
    const api = await bookstore();
    const server = await startServe({ apis: [api], port: 0, log: () => undefined, mcp: true });
    running.push(server);
    const client = new MultiServerMCPClient({ mcpServers: { bookstore: { transport: "http", url: server.mcpUrl as string } } });
    clients.push(client);
    const tools = await client.getTools();
    expect(tools.map((t) => t.name).sort()).toEqual(api.catalog.tools.map((t) => t.name).sort());
    const createOrder = tools.find((t) => t.name === "createOrder");
    expect(createOrder?.description).toBe(api.catalog.get("createOrder")?.description);

    const order = {
      items: [{ bookId: "bk-1001", quantity: 2 }],
      email: "ana@example.com",
      shippingAddress: { name: "Ana Ruiz", line1: "1 Main St", city: "Austin", postalCode: "78701", country: "US" },
    };
    const model = fakeModel()
      .respondWithTools([{ name: "listBooks", args: { genre: "mystery", inStock: true } }])
      .respondWithTools([{ name: "getBook", args: { bookId: "bk-9999" } }])
      .respondWithTools([{ name: "createOrder", args: order }])
      .respond(new AIMessage("Ordered two copies of The Lighthouse at Varden Point."));
    const agent = createAgent({ model, tools });
    const { messages } = await agent.invoke({ messages: [{ role: "user", content: "Order me two copies of an in-stock mystery." }] });
    const toolMessages = messages.filter((m) => ToolMessage.isInstance(m));
    expect(toolMessages.map((m) => m.name)).toEqual(["listBooks", "getBook", "createOrder"]);
    const text = (m: ToolMessage): string => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));
    // The adapters hand the model the text block with its structured content and _meta (as JSON text).
    const structured = (m: ToolMessage): any => (JSON.parse(text(m)) as { structuredContent: unknown; text: string; meta: Record<string, unknown> });

    // listBooks: the fixtures' in-stock mysteries, as the REST route answers them.
    const listed = toolMessages[0] as ToolMessage;
    const block = structured(listed);
    expect(JSON.parse(block.text)).toEqual(block.structuredContent);
    expect(block.meta).toEqual({ "dev.toolsim/status": 200, "dev.toolsim/source": "state" });
    const books = block.structuredContent as { items: Array<{ id: string; genre: string; stock: number }> };
    expect(books.items.map((b) => b.id)).toContain("bk-1001");
    expect(books.items.every((b) => b.genre === "mystery" && b.stock > 0)).toBe(true);
    // getBook of an unknown id: the adapters turn the isError result into an error the agent reads, and it goes on.
    expect(text(toolMessages[1] as ToolMessage)).toMatch(/not found/i);
    // createOrder: a new order, kept in this MCP session's state.
    const placed = structured(toolMessages[2] as ToolMessage).structuredContent as { id: string; email: string; items: Array<{ bookId: string; quantity: number }> };
    expect(placed.email).toBe("ana@example.com");
    expect(placed.items[0]).toMatchObject({ bookId: "bk-1001", quantity: 2 });
    expect(String(messages.at(-1)?.content)).toMatch(/^Ordered two copies/);

    const { sessions } = (await (await fetch(`${server.url}/__toolsim/sessions`)).json()) as { sessions: string[] };
    const states = await Promise.all(sessions.map(async (s) => (await (await fetch(`${server.url}/__toolsim/state?session=${s}`)).json()) as { apis: { bookstore: { "/orders": Array<{ id: string }> } } }));
    const withOrder = states.filter((st) => st.apis.bookstore["/orders"].some((o) => o.id === placed.id));
    expect(withOrder).toHaveLength(1);
  });
});
