/**
 * A request body as form fields, for `application/x-www-form-urlencoded` and `multipart/form-data`: each property a
 * field (a list one field per item), text as it is and anything structured as JSON (a form carries text; the server
 * decodes JSON-encoded parts by the body schema).
 */
export function formFields(body: unknown): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (typeof body !== "object" || body === null || Array.isArray(body)) return out;
  for (const [k, v] of Object.entries(body)) {
    for (const x of Array.isArray(v) ? v : [v]) {
      if (x === undefined) continue;
      out.push([k, typeof x === "string" ? x : JSON.stringify(x)]);
    }
  }
  return out;
}

/** A field name as a multipart header quotes it (HTML's encoding: `"`, CR and LF percent-encoded). */
function quotedName(name: string): string {
  return name.replace(/\r/g, "%0D").replace(/\n/g, "%0A").replace(/"/g, "%22");
}

/**
 * Form fields as a `multipart/form-data` body (RFC 7578), with its content type: the boundary is one that no
 * field contains, so the same fields always give the same text.
 */
export function multipartBody(fields: ReadonlyArray<[string, string]>): { text: string; contentType: string } {
  let boundary = "toolsim-form-boundary";
  while (fields.some(([k, v]) => k.includes(boundary) || v.includes(boundary))) boundary += "-x";
  let text = "";
  for (const [k, v] of fields) text += `--${boundary}\r\nContent-Disposition: form-data; name="${quotedName(k)}"\r\n\r\n${v}\r\n`;
  text += `--${boundary}--\r\n`;
  return { text, contentType: `multipart/form-data; boundary=${boundary}` };
}
