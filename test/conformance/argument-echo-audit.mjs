#!/usr/bin/env node
// Counts tool results (2xx) whose fields disagree with same-named call arguments, over a run's journal
// (events.jsonl: tool.call / tool.result pairs, tester.verdict for accepted episodes).
//   node test/conformance/argument-echo-audit.mjs RUN/events.jsonl [--detail] [--top]   (--top: top-level fields only)
// A result field corresponds to an argument when it has the argument's name at the top level of the body,
// or (arguments not sent in the request body; unless --top) in each item of the body's lists (the body array
// or a top-level array field). It agrees when equal (numbers and their strings alike), when an array field
// contains a scalar argument, or when an object/array argument's values are all in the field (a created order's
// line keeps bookId and quantity and gains a title). Pairs of unrelated types (a number and a list of
// objects) are not compared. Credentials (token, password, key...) are counted apart: servers issue new ones.
import { readFileSync } from "node:fs";
const file = process.argv[2];
const topOnly = process.argv.includes("--top");
const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
const calls = new Map(); const results = []; const accepted = new Set();
for (const l of lines) {
  const e = JSON.parse(l);
  if (e.type === "tool.call") calls.set(e.episodeId + "\u0000" + e.call.id, e);
  else if (e.type === "tool.result") results.push(e);
  else if (e.type === "tester.verdict" && e.verdict.accepted) accepted.add(e.episodeId);
}
const CREDENTIAL = /token|secret|password|passwd|passphrase|api[-_]?key|credential|signature|otp$/i;
const isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const scalar = (v) => v === null || typeof v !== "object";
const eq = (a, b) => a === b || (scalar(a) && scalar(b) && a !== null && b !== null && String(a) === String(b)) || JSON.stringify(a) === JSON.stringify(b);
/** Whether `field` holds `arg`'s values; undefined when the two cannot be compared. */
function agrees(field, arg) {
  if (scalar(arg) && scalar(field)) return eq(field, arg);
  if (scalar(arg) && Array.isArray(field)) return field.every(scalar) ? field.some((f) => eq(f, arg)) : undefined;
  if (Array.isArray(arg) && Array.isArray(field)) return arg.length === field.length && arg.every((a, i) => agrees(field[i], a) !== false);
  if (isObj(arg) && isObj(field)) return Object.entries(arg).every(([k, v]) => k in field && agrees(field[k], v) !== false);
  return undefined;
}
const bad = new Map(); const badEpisodes = new Set(); const credentialEpisodes = new Set();
let compared = 0, disagreeing = 0, resultsWithBad = 0, credentials = 0;
const examples = new Map();
for (const r of results) {
  const c = calls.get(r.episodeId + "\u0000" + r.callId);
  if (!c || r.result.status < 200 || r.result.status > 299) continue;
  const args = isObj(c.call.arguments) ? c.call.arguments : {};
  const sentInBody = new Set(isObj(c.request?.body) ? Object.keys(c.request.body) : []);
  const body = r.result.body;
  const holders = [];
  if (isObj(body)) holders.push(["", body]);
  if (!topOnly) {
    if (isObj(body)) for (const [k, v] of Object.entries(body)) if (Array.isArray(v)) v.forEach((it) => isObj(it) && holders.push([k + "[]", it]));
    if (Array.isArray(body)) body.forEach((it) => isObj(it) && holders.push(["[]", it]));
  }
  let any = false;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    for (const [where, h] of holders) {
      if (!(name in h) || (where !== "" && sentInBody.has(name))) continue;
      const ok = agrees(h[name], value);
      if (ok === undefined) continue;
      compared++;
      if (ok) continue;
      if (CREDENTIAL.test(name)) { credentials++; if (accepted.has(r.episodeId)) credentialEpisodes.add(r.episodeId); continue; }
      disagreeing++; any = true;
      const key = `${c.toolset}.${r.name} ${where}${where ? "." : ""}${name}`;
      bad.set(key, (bad.get(key) ?? 0) + 1);
      if (!examples.has(key)) examples.set(key, `${r.episodeId} arg=${JSON.stringify(value).slice(0, 70)} result=${JSON.stringify(h[name]).slice(0, 70)}`);
    }
  }
  if (any) { resultsWithBad++; if (accepted.has(r.episodeId)) badEpisodes.add(r.episodeId); }
}
console.log(`accepted episodes with a result field disagreeing with a same-named argument: ${badEpisodes.size}/${accepted.size}`);
console.log(`2xx results with a disagreement: ${resultsWithBad}; field comparisons: ${compared}, disagreeing: ${disagreeing}; credentials issued anew (not counted): ${credentials} in ${credentialEpisodes.size} accepted episodes`);
if (process.argv.includes("--detail")) for (const [k, n] of [...bad].sort((a, b) => b[1] - a[1])) console.log(String(n).padStart(5), k, " e.g.", examples.get(k));
