const snakeCache = new Map<string, string>();

/** `createdAt` / `ImageURL` / `zip-code` -> `created_at` / `image_url` / `zip_code`. */
export function snakeName(name: string): string {
  let hit = snakeCache.get(name);
  if (hit === undefined) {
    hit = toSnake(name);
    if (snakeCache.size > 50_000) snakeCache.clear();
    snakeCache.set(name, hit);
  }
  return hit;
}

function toSnake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
}
