import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { buildReportData, type ReportData, type ReportDataOptions } from "./report-data.js";
import { renderReportHtml } from "./report-page.js";
import { namingFile } from "../runs/file-writes.js";

/** What a report wrote. */
export interface ReportResult {
  path: string;
  bytes: number;
  data: ReportData;
}

/** Writes the HTML report of a run folder (atomically: a temporary file renamed into place). */
export async function writeReport(dir: string, out: string, options: ReportDataOptions = {}): Promise<ReportResult> {
  const data = await buildReportData(dir, options);
  const html = renderReportHtml(data);
  mkdirSync(dirname(out) || ".", { recursive: true });
  try {
    namingFile(out, () => writeFileSync(`${out}.partial`, html));
  } catch (e) {
    rmSync(`${out}.partial`, { force: true });
    throw e;
  }
  renameSync(`${out}.partial`, out);
  return { path: out, bytes: Buffer.byteLength(html), data };
}
