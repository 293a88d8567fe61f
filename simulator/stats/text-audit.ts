import { isObject } from "../../specs/json-object.js";
import { isIdName, isPlural, plural, singular } from "../../specs/words.js";
import type { AgentTool } from "../../agents/roles/roles.js";
import type { SimEvent } from "../core/events.js";
import { EPISODE_FORMATS, prepareEpisode } from "../export/export-run.js";
import { resolveExportOptions } from "../export/export-format.js";
import { readEpisodesSkippingCorrupt, readRunInfo } from "../export/run-folder.js";
import { RunToolsets } from "../export/run-toolsets.js";
import { projectEpisode, type CorpusRecord, type RejectedRecord } from "../runs/corpus-projection.js";
import { PLACEHOLDER } from "../../specs/redact-secrets.js";

/*
 * The text-quality audit of a run: what reaches training data must read as written by people. It finds internal
 * scores and matching notes in exported text (every episode exported in every format, thoughts included), broken
 * agreements in the dialogue ("the units is standard", "the author are X"), yes/no values said as nouns ("the
 * holiday is yes"), counts that disagree with their noun ("1 days", "I found 3 book"), and planned values that
 * never vary (every conversion amount 250).
 */

/** The kinds of problem the audit finds. */
export type TextFindingKind = "internal-score" | "agreement" | "boolean-as-value" | "count" | "repeated-value";

/** One problem found. */
export interface TextFinding {
  kind: TextFindingKind;
  episodeId: string;
  /** Where: an export format, or `instruction`, `reply`, `question`, `answer`, `thought`; for repeated values `tool.arg`. */
  where: string;
  /** The offending words. */
  match: string;
  /** The text around them (at most 160 characters). */
  text: string;
}

/** The audit of a run's text. */
export interface TextAudit {
  episodes: number;
  /** Dialogue texts checked for grammar. */
  texts: number;
  /** Exported lines checked for internal scores (all formats). */
  exportedLines: number;
  counts: Record<TextFindingKind, number>;
  /** The first findings of each kind (up to `maxExamples` each). */
  findings: TextFinding[];
  /** Planned values by tool argument: how many, how many distinct, and the share of the most common one. */
  values: Array<{ argument: string; count: number; distinct: number; top: string; topShare: number }>;
}

/** Notes the offline assistant keeps for debugging: never in exported text. */
const INTERNAL_MARKERS: readonly RegExp[] = [
  /\(-?\d+\.\d{2}, next [\w.-]+ -?\d+\.\d{2}\)/,
  /-> [A-Za-z_][\w.]* \(-?\d+\.\d{2}/,
  /\b(?:Request plan|Matches|Plan [\w ]+ -> [\w ]+ is done)\b/,
  /\b(?:named in the request|from a cue word in the request|after the name of its resource|from a coordinate pair|from the words after a cue|its documented default)\b/,
  /= the (?:number|proper|quoted|email|date|datetime|time|id|code2|code3|lang|url) in the request/,
  /\(to find the id\)/,
];

const QUOTED = /"[^"]*"|“[^”]*”/g;
/** "the <up to four words> is|are <value>": the subject's words hold no verb ("the type is light that are online" is two clauses). */
const THE_X_IS = /\bthe ((?:(?!(?:is|are|was|were|that|which|who)\b)[a-z]+ ){0,3}(?!(?:is|are|was|were|that|which|who)\b)[a-z]+) (is|are)(?: now)? ([^,.;:!?]*?)(?= and (?:the|it|there)\b|[,.;:!?]|$)/g;
const BOOLEAN_VALUE = /^(?:yes|no|true|false)\b/;
const COUNT = /\b(?:found|lists|listed) (\d+) ([a-z]+)\b/g;
const NOT_NOUNS = new Set(["more", "other", "others", "of", "in", "results", "result"]);

function around(text: string, at: number, length: number): string {
  const start = Math.max(0, at - 60);
  return text.slice(start, Math.min(text.length, at + length + 60));
}

/** The head noun of "the X of Y" or "the big X": the word before "of", else the last word. */
function headOf(phrase: string): string {
  const words = phrase.split(" ");
  const of = words.indexOf("of");
  return (of > 0 ? words[of - 1] : words[words.length - 1]) ?? "";
}

/** Collects the audit of a run, episode by episode. */
export class TextAuditor {
  private episodes = 0;
  private texts = 0;
  private exportedLines = 0;
  private readonly findings: TextFinding[] = [];
  private readonly counts: Record<TextFindingKind, number> = { "internal-score": 0, agreement: 0, "boolean-as-value": 0, count: 0, "repeated-value": 0 };
  private readonly values = new Map<string, Map<string, number>>();

  constructor(private readonly maxExamples = 20) {}

  private found(f: TextFinding): void {
    this.counts[f.kind]++;
    if (this.findings.filter((x) => x.kind === f.kind).length < this.maxExamples) this.findings.push(f);
  }

  /** Checks one text of the dialogue (quoted values aside) for broken agreements, yes/no values and counts. */
  checkText(episodeId: string, where: string, raw: string): void {
    this.texts++;
    const text = raw.replace(QUOTED, '"…"');
    for (const m of text.matchAll(THE_X_IS)) {
      const phrase = m[1] ?? "";
      const verb = m[2] ?? "";
      const value = (m[3] ?? "").trim();
      const head = headOf(phrase);
      if (BOOLEAN_VALUE.test(value)) {
        this.found({ kind: "boolean-as-value", episodeId, where, match: m[0], text: around(raw, m.index, m[0].length) });
        continue;
      }
      if (verb === "is" && isPlural(head) && singular(head) !== head) {
        this.found({ kind: "agreement", episodeId, where, match: m[0], text: around(raw, m.index, m[0].length) });
      } else if (verb === "are" && !isPlural(head) && plural(head) !== head && !/,| and | or /.test(value) && value !== "") {
        this.found({ kind: "agreement", episodeId, where, match: m[0], text: around(raw, m.index, m[0].length) });
      }
    }
    for (const m of text.matchAll(COUNT)) {
      const n = Number(m[1]);
      const noun = m[2] ?? "";
      if (NOT_NOUNS.has(noun)) continue;
      const bad = n === 1 ? isPlural(noun) && singular(noun) !== noun : !isPlural(noun) && plural(noun) !== noun;
      if (bad) this.found({ kind: "count", episodeId, where, match: m[0], text: around(raw, m.index, m[0].length) });
    }
  }

  /** Checks every string of an exported line for the assistant's internal notes. */
  checkExported(episodeId: string, format: string, line: unknown): void {
    this.exportedLines++;
    const visit = (v: unknown): void => {
      if (typeof v === "string") {
        for (const re of INTERNAL_MARKERS) {
          const m = re.exec(v);
          if (m) this.found({ kind: "internal-score", episodeId, where: format, match: m[0], text: around(v, m.index, m[0].length) });
        }
      } else if (Array.isArray(v)) v.forEach(visit);
      else if (isObject(v)) Object.values(v).forEach(visit);
    };
    visit(line);
  }

  /** Adds an episode: its dialogue texts, its plan's values, and its exported lines. */
  addEpisode(record: CorpusRecord | RejectedRecord, exported: ReadonlyArray<{ format: string; line: unknown }>, tools: readonly AgentTool[] = []): void {
    this.episodes++;
    const id = record.meta.episodeId;
    for (const i of record.instructions) this.checkText(id, "instruction", i.text);
    let lastWasQuestion = false;
    for (const t of record.dialogue) {
      if (t.role === "user") {
        if (lastWasQuestion) this.checkText(id, "reply", t.content);
        lastWasQuestion = false;
      } else if (t.role === "assistant") {
        if (t.thought !== undefined) this.checkText(id, "thought", t.thought);
        if (t.content !== "") this.checkText(id, (t.toolCalls?.length ?? 0) > 0 ? "assistant" : t.content.trim().endsWith("?") ? "question" : "answer", t.content);
        lastWasQuestion = t.content.trim().endsWith("?");
      }
    }
    for (const e of exported) this.checkExported(id, e.format, e.line);
    for (const request of record.plan?.requests ?? []) {
      for (const step of request.steps) {
        const tool = tools.find((t) => t.name === step.tool);
        const props = tool && isObject(tool.parameters) && isObject(tool.parameters["properties"]) ? tool.parameters["properties"] : {};
        for (const [arg, value] of Object.entries(step.args)) {
          if (typeof value !== "string" && typeof value !== "number") continue;
          // A secret's placeholder (`[redacted-1]`) says nothing about how values vary: the journal holds no secret.
          if (typeof value === "string" && PLACEHOLDER.test(value)) continue;
          if (step.links.some((l) => l.arg === arg) || isIdName(arg)) continue;
          const schema = props[arg];
          if (isObject(schema) && (Array.isArray(schema["enum"]) || schema["const"] !== undefined)) continue;
          const key = `${step.tool}.${arg}`;
          const counts = this.values.get(key) ?? new Map<string, number>();
          counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
          this.values.set(key, counts);
        }
      }
    }
  }

  /**
   * The audit so far. A planned value is reported as repeated when one value is at least `repeatShare` of an
   * argument's `minCount` or more values (ids, enum values and linked values are not counted: they come from a
   * closed list).
   */
  report(options: { repeatShare?: number; minCount?: number } = {}): TextAudit {
    const share = options.repeatShare ?? 0.8;
    const minCount = options.minCount ?? 10;
    const values = [...this.values.entries()]
      .map(([argument, counts]) => {
        const count = [...counts.values()].reduce((a, b) => a + b, 0);
        const [top, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
        return { argument, count, distinct: counts.size, top, topShare: count > 0 ? n / count : 0 };
      })
      .sort((a, b) => b.topShare - a.topShare || b.count - a.count);
    const counts = { ...this.counts, "repeated-value": 0 };
    const findings = this.findings.filter((f) => f.kind !== "repeated-value");
    for (const v of values) {
      if (v.count < minCount || v.topShare < share) continue;
      counts["repeated-value"]++;
      findings.push({ kind: "repeated-value", episodeId: "", where: v.argument, match: v.top, text: `${v.argument} is ${v.top} in ${Math.round(v.topShare * 100)}% of ${v.count} plans` });
    }
    return { episodes: this.episodes, texts: this.texts, exportedLines: this.exportedLines, counts, findings, values };
  }
}

/** Options of {@link auditRunText}. */
export interface TextAuditOptions {
  /** Toolset files or folders, when those recorded in run.json moved. */
  toolsets?: string[];
  warn?: (message: string) => void;
  /** Examples kept per kind (default 20). */
  maxExamples?: number;
}

/** Audits the text of a run folder: every episode (accepted or not), exported in every per-episode format with thoughts. */
export async function auditRunText(dir: string, options: TextAuditOptions = {}): Promise<TextAudit> {
  const info = await readRunInfo(dir);
  const toolsets = await RunToolsets.load(info, { ...(options.toolsets ? { paths: options.toolsets } : {}), ...(options.warn ? { warn: options.warn } : {}) });
  const auditor = new TextAuditor(options.maxExamples);
  const exportOptions = resolveExportOptions({});
  for await (const events of readEpisodesSkippingCorrupt(dir, options.warn ? { warn: options.warn } : {})) {
    auditEpisode(auditor, events, toolsets, exportOptions);
  }
  return auditor.report();
}

function auditEpisode(auditor: TextAuditor, events: readonly SimEvent[], toolsets: RunToolsets, exportOptions: ReturnType<typeof resolveExportOptions>): void {
  const record = projectEpisode(events);
  const episode = prepareEpisode(record, toolsets);
  const exported: Array<{ format: string; line: unknown }> = [];
  for (const format of Object.values(EPISODE_FORMATS)) {
    for (const line of format.lines(episode, exportOptions)) exported.push({ format: format.name, line });
  }
  auditor.addEpisode(record, exported, episode.tools);
}

/** The audit in plain text: the counts, then examples of each finding. */
export function formatTextAudit(audit: TextAudit): string {
  const lines = [
    `episodes ${audit.episodes}, dialogue texts ${audit.texts}, exported lines ${audit.exportedLines}`,
    `internal scores in exported text: ${audit.counts["internal-score"]}`,
    `broken agreements: ${audit.counts.agreement}; yes/no said as a value: ${audit.counts["boolean-as-value"]}; counts: ${audit.counts.count}`,
    `planned values that never vary: ${audit.counts["repeated-value"]}`,
  ];
  for (const f of audit.findings) lines.push(`  ${f.kind} ${f.episodeId} ${f.where}: ${f.match}${f.kind === "repeated-value" ? "" : `  … ${f.text.replace(/\s+/g, " ")}`}`);
  return `${lines.join("\n")}\n`;
}
