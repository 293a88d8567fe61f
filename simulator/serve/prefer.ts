/** Prism's `Prefer` request header: which status, which named example, static or dynamic bodies, which seed. */
export interface Preferences {
  code?: number;
  example?: string;
  dynamic?: boolean;
  seed?: number;
}

/** Parses `Prefer: code=404, example=cat, dynamic=true, seed=7` (also `;`-separated); unknown tokens are ignored. */
export function parsePrefer(header: string | null | undefined): Preferences {
  const out: Preferences = {};
  if (!header) return out;
  for (const token of header.split(/[,;]/)) {
    const eq = token.indexOf("=");
    if (eq < 0) continue;
    const key = token.slice(0, eq).trim().toLowerCase();
    const value = token.slice(eq + 1).trim().replace(/^"(.*)"$/, "$1");
    if (key === "code" && /^\d{3}$/.test(value)) out.code = Number(value);
    else if (key === "example" && value !== "") out.example = value;
    else if (key === "dynamic") out.dynamic = value.toLowerCase() === "true";
    else if (key === "seed" && /^-?\d+$/.test(value)) out.seed = Number(value);
  }
  return out;
}
