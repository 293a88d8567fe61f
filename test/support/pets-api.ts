import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the pets API received. */
export interface SeenRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A real pets API on 127.0.0.1 (the "real API" of `test/fixtures/serve/pets.openapi.yaml`) with what it saw. */
export interface PetsApi {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

interface Pet {
  id: number;
  name: string;
  species: string;
  age?: number;
}

/**
 * Starts the pets API: list (filtered by `species`, cut by `limit`), create, read, delete, status. With `key`, every
 * operation but `/status` wants it in `X-Api-Key`, in `api_key` or as a bearer token (401 otherwise, naming the
 * presented value, as careless APIs do). `GET /pets/4242` answers with the caller's key as the pet's name (an API
 * that echoes credentials). `delayMs` delays every answer.
 */
export async function startPetsApi(options: { key?: string; delayMs?: number } = {}): Promise<PetsApi> {
  const seen: SeenRequest[] = [];
  const pets = new Map<number, Pet>([
    [1, { id: 1, name: "Whiskers", species: "cat", age: 3 }],
    [2, { id: 2, name: "Rex", species: "dog", age: 4 }],
    [3, { id: 3, name: "Tweety", species: "bird" }],
  ]);
  let next = 100;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      const url = new URL(req.url ?? "/", "http://pets.local");
      const send = (status: number, value?: unknown): void => {
        const answer = (): void => {
          if (value === undefined) {
            res.writeHead(status);
            res.end();
            return;
          }
          res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
          res.end(JSON.stringify(value));
        };
        if (options.delayMs) setTimeout(answer, options.delayMs);
        else answer();
      };
      const path = url.pathname.replace(/^\/v1/, "");
      const presented = req.headers["x-api-key"] ?? url.searchParams.get("api_key") ?? req.headers["authorization"]?.replace(/^Bearer\s+/i, "");
      if (path === "/status") return send(200, { ok: true, region: "eu" });
      if (options.key !== undefined && presented !== options.key) return send(401, { message: presented ? `unknown key ${String(presented)}` : "an API key is required" });
      if (path === "/pets" && req.method === "GET") {
        const species = url.searchParams.get("species");
        const limit = Number(url.searchParams.get("limit") ?? "100");
        return send(200, [...pets.values()].filter((p) => species === null || p.species === species).slice(0, limit));
      }
      if (path === "/pets" && req.method === "POST") {
        let input: Partial<Pet>;
        try {
          input = (req.headers["content-type"] ?? "").includes("x-www-form-urlencoded")
            ? (Object.fromEntries(new URLSearchParams(body)) as Partial<Pet>)
            : (JSON.parse(body) as Partial<Pet>);
        } catch {
          return send(400, { message: "the body is not JSON" });
        }
        const pet: Pet = { id: next++, name: String(input.name ?? ""), species: String(input.species ?? "") };
        if (input.age !== undefined) pet.age = Number(input.age);
        pets.set(pet.id, pet);
        return send(201, pet);
      }
      const one = /^\/pets\/(\d+)$/.exec(path);
      if (one) {
        const id = Number(one[1]);
        if (id === 4242 && req.method === "GET") return send(200, { id, name: String(presented), species: "cat" });
        const pet = pets.get(id);
        if (!pet) return send(404, { message: `no pet ${id}` });
        if (req.method === "GET") return send(200, pet);
        if (req.method === "DELETE") {
          pets.delete(id);
          return send(204);
        }
      }
      send(404, { message: `no route ${req.method ?? ""} ${path}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
