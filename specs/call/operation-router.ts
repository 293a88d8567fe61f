import { RE2JS } from "re2js";
import type { Catalog } from "../catalog/catalog.js";
import type { Tool } from "../catalog/tool.js";

/** The outcome of routing an HTTP request to an operation. */
export type RouteMatch =
  | { kind: "match"; tool: Tool; /** Path parameters by name, percent-decoded. */ params: Record<string, string> }
  /** The path exists but not with this method; `allow` lists the methods it has (upper case). */
  | { kind: "method-not-allowed"; allow: string[] }
  | { kind: "not-found" };

/** One segment of a path template: a literal, a whole-segment parameter, or a pattern (`{id}.json`, `v{n}`). */
/** A segment template with parameters inside literal text (`{name}.{ext}`), matched on a linear-time engine. */
type SegmentRegex = { readonly source: string; exec(input: string): ArrayLike<string | undefined> | null };

type Segment = { kind: "literal"; text: string } | { kind: "param"; name: string } | { kind: "pattern"; regex: SegmentRegex; names: string[]; literalLength: number };

interface Node {
  literals: Map<string, Node>;
  /** Patterned segments, most literal characters first. */
  patterns: Array<{ regex: SegmentRegex; names: string[]; literalLength: number; node: Node }>;
  /** Whole-segment parameters (by name: two templates may name the same place differently). */
  params: Array<{ name: string; node: Node }>;
  /** Operations ending here: upper-case method -> tool. */
  methods: Map<string, Tool>;
}

function newNode(): Node {
  return { literals: new Map(), patterns: [], params: [], methods: new Map() };
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function parseSegment(text: string): Segment {
  if (!text.includes("{")) return { kind: "literal", text };
  const whole = /^\{([^{}]+)\}$/.exec(text);
  if (whole) return { kind: "param", name: whole[1] as string };
  const names: string[] = [];
  let source = "^";
  let literalLength = 0;
  let rest = text;
  for (let m = /\{([^{}]+)\}/.exec(rest); m; m = /\{([^{}]+)\}/.exec(rest)) {
    const lit = rest.slice(0, m.index);
    // Greedy: the text after a parameter is its template's last literal and parameter (`{position}.{ext}` on
    // `37.3,-121.8.json` is position `37.3,-121.8`, ext `json`), as an extension or a format comes last.
    source += escapeRegex(lit) + "(.+)";
    literalLength += lit.length;
    names.push(m[1] as string);
    rest = rest.slice(m.index + m[0].length);
  }
  source += escapeRegex(rest) + "$";
  literalLength += rest.length;
  // RE2 (linear time): `(.+)\.(.+)` on a long request segment cannot backtrack for seconds.
  const re = RE2JS.compile(source, RE2JS.DOTALL);
  return { kind: "pattern", regex: { source, exec: (input) => re.exec(input) }, names, literalLength };
}

/** Splits a request or template path into segments (no leading slash, no trailing empty segment). */
function splitPath(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  const parts = trimmed.split("/");
  if (parts[0] === "") parts.shift();
  if (parts.length === 1 && parts[0] === "") return [];
  return parts;
}

function decode(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Matches HTTP requests to a catalog's operations by method and path template: literal segments win over
 * patterned ones (`{id}.json`), which win over whole-segment parameters, with backtracking; a path that
 * exists without the method is a 405 with the methods it allows; HEAD falls back to GET.
 */
export class OperationRouter {
  private readonly root = newNode();

  constructor(tools: readonly Tool[]) {
    for (const tool of tools) this.add(tool);
  }

  /** The router of a catalog (built once per catalog). */
  static of(catalog: Catalog): OperationRouter {
    let router = routers.get(catalog);
    if (!router) {
      router = new OperationRouter(catalog.tools);
      routers.set(catalog, router);
    }
    return router;
  }

  private add(tool: Tool): void {
    let node = this.root;
    for (const text of splitPath(tool.operation.path)) {
      const seg = parseSegment(text);
      if (seg.kind === "literal") {
        let next = node.literals.get(seg.text);
        if (!next) node.literals.set(seg.text, (next = newNode()));
        node = next;
      } else if (seg.kind === "param") {
        let entry = node.params.find((p) => p.name === seg.name);
        if (!entry) node.params.push((entry = { name: seg.name, node: newNode() }));
        node = entry.node;
      } else {
        let entry = node.patterns.find((p) => p.regex.source === seg.regex.source);
        if (!entry) {
          node.patterns.push((entry = { regex: seg.regex, names: seg.names, literalLength: seg.literalLength, node: newNode() }));
          node.patterns.sort((a, b) => b.literalLength - a.literalLength);
        }
        node = entry.node;
      }
    }
    const method = tool.operation.method.toUpperCase();
    if (!node.methods.has(method)) node.methods.set(method, tool);
  }

  /** Routes a request: `path` is the request path without query string (percent-encoded as sent). */
  match(method: string, path: string): RouteMatch {
    const segments = splitPath(path);
    const upper = method.toUpperCase();
    const allow = new Set<string>();
    const params: Record<string, string> = {};
    const found = this.walk(this.root, segments, 0, upper, params, allow);
    if (found) return { kind: "match", tool: found, params };
    if (allow.size > 0) return { kind: "method-not-allowed", allow: [...allow] };
    return { kind: "not-found" };
  }

  private walk(node: Node, segments: readonly string[], i: number, method: string, params: Record<string, string>, allow: Set<string>): Tool | undefined {
    if (i === segments.length) {
      if (node.methods.size === 0) return undefined;
      const tool = node.methods.get(method) ?? (method === "HEAD" ? node.methods.get("GET") : undefined);
      if (tool) return tool;
      for (const m of node.methods.keys()) allow.add(m);
      return undefined;
    }
    const raw = segments[i] as string;
    const literal = node.literals.get(raw) ?? (raw.includes("%") ? node.literals.get(decode(raw)) : undefined);
    if (literal) {
      const found = this.walk(literal, segments, i + 1, method, params, allow);
      if (found) return found;
    }
    for (const p of node.patterns) {
      const m = p.regex.exec(raw);
      if (!m) continue;
      p.names.forEach((name, k) => (params[name] = decode(m[k + 1] as string)));
      const found = this.walk(p.node, segments, i + 1, method, params, allow);
      if (found) return found;
      for (const name of p.names) delete params[name];
    }
    if (raw !== "") {
      for (const p of node.params) {
        params[p.name] = decode(raw);
        const found = this.walk(p.node, segments, i + 1, method, params, allow);
        if (found) return found;
        delete params[p.name];
      }
    }
    return undefined;
  }
}

const routers = new WeakMap<Catalog, OperationRouter>();
