/** A file-safe slug of an API name: `A Bíblia Digital` -> `a-biblia-digital`, `Lob.com` -> `lob-com`. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug === "" ? "api" : slug;
}
