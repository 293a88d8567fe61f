import { IncomingMessage, createServer, request as httpRequest, type Server } from "node:http";
import { Agent } from "node:http";
import { Socket, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CoalescedResponse, MAX_HELD, MAX_HOLD_MS } from "../../../simulator/serve/coalesced-response.js";

/** A response without a connection (its output is buffered): enough to see when `end` takes effect. */
function response(): CoalescedResponse {
  return new CoalescedResponse(new IncomingMessage(new Socket()));
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("CoalescedResponse", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("holds an ended response until the turn of the event loop ends", async () => {
    const r = response();
    r.end("done");
    expect(r.writableEnded).toBe(false);
    await turn();
    expect(r.writableEnded).toBe(true);
  });

  it(`writes every held response once ${MAX_HELD} are held`, async () => {
    const all = Array.from({ length: MAX_HELD + 1 }, response);
    for (const r of all.slice(0, MAX_HELD - 1)) r.end("x");
    expect(all.some((r) => r.writableEnded)).toBe(false);
    all[MAX_HELD - 1]?.end("x");
    expect(all.slice(0, MAX_HELD).every((r) => r.writableEnded)).toBe(true);
    all[MAX_HELD]?.end("x");
    expect(all[MAX_HELD]?.writableEnded).toBe(false);
    await turn();
    expect(all[MAX_HELD]?.writableEnded).toBe(true);
  });

  it(`writes the held responses when one is ended ${MAX_HOLD_MS} ms after the first`, () => {
    let now = 1000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const first = response();
    const second = response();
    first.end("a");
    now += MAX_HOLD_MS - 1;
    expect(first.writableEnded).toBe(false);
    now += 1;
    second.end("b");
    expect([first.writableEnded, second.writableEnded]).toEqual([true, true]);
  });

  it("a second end of a held response comes after the first, as on a plain response (write after end)", async () => {
    const r = response();
    const codes: unknown[] = [];
    r.on("error", (e: NodeJS.ErrnoException) => codes.push(e.code));
    r.end("first");
    r.end("second", (e?: NodeJS.ErrnoException | null) => codes.push(`callback ${e?.code}`));
    await turn();
    await turn();
    expect(codes).toEqual(["callback ERR_STREAM_WRITE_AFTER_END", "ERR_STREAM_WRITE_AFTER_END"]);
    const written = (r as unknown as { outputData: Array<{ data: unknown }> }).outputData.map((d) => String(d.data)).join("");
    expect(written.endsWith("first")).toBe(true);
  });

  it("an end that throws drops that connection only", async () => {
    const r = response();
    const destroyed = vi.spyOn(r, "destroy");
    // A chunk `end` refuses (neither text nor bytes) throws where it is written: at the end of the turn.
    (r.end as (chunk: unknown) => void)({ not: "bytes" });
    await turn();
    expect(destroyed).toHaveBeenCalledTimes(1);
    expect(destroyed.mock.calls[0]?.[0]).toBeInstanceOf(Error);
  });

  describe("over HTTP", () => {
    let server: Server | undefined;
    afterEach(async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    });

    it("answers many requests on a few kept-alive connections, each with its own body", async () => {
      server = createServer({ ServerResponse: CoalescedResponse }, (req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(`answer to ${req.url}`);
      });
      await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as AddressInfo).port;
      const agent = new Agent({ keepAlive: true, maxSockets: 4 });
      const get = (path: string): Promise<string> =>
        new Promise((resolve, reject) => {
          httpRequest({ host: "127.0.0.1", port, path, agent }, (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (d: string) => (text += d));
            res.on("end", () => resolve(text));
          })
            .on("error", reject)
            .end();
        });
      const paths = Array.from({ length: 200 }, (_, i) => `/r${i}`);
      const answers = await Promise.all(paths.map(get));
      agent.destroy();
      expect(answers).toEqual(paths.map((p) => `answer to ${p}`));
    });
  });
});
