import type { Ajv } from "ajv";
import addFormatsImport from "ajv-formats";

// ajv-formats is CommonJS: under nodenext its default export is the module object.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

const INT32 = { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 } as const;
const INT64 = { type: "number", validate: (n: number) => Number.isInteger(n) } as const;
const ANY_NUMBER = { type: "number", validate: () => true } as const;
/** Base64: whole groups of four, the last one padded with at most two `=` (one pass, no backtracking). */
const BASE64_CHARS = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (s: string): boolean => s.length % 4 === 0 && BASE64_CHARS.test(s);

/** Formats that OpenAPI defines or that real specs use, beside JSON Schema's; unknown formats are not checked. */
export function addOpenApiFormats(ajv: Ajv): void {
  addFormats(ajv);
  ajv.addFormat("int32", INT32);
  ajv.addFormat("int64", INT64);
  ajv.addFormat("float", ANY_NUMBER);
  ajv.addFormat("double", ANY_NUMBER);
  ajv.addFormat("byte", { type: "string", validate: isBase64 });
  for (const loose of ["binary", "password", "url", "phone", "html", "text", "textarea", "markdown"]) {
    ajv.addFormat(loose, true);
  }
}
