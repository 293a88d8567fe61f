/**
 * Sets an own, enumerable property, whatever its name: `__proto__` becomes a property named `__proto__` (as
 * `JSON.parse` makes it) instead of changing the object's prototype. For objects built from request data.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Whether an object has a property of its own by that name (`constructor` and `toString` are just names). */
export function hasOwn(target: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(target, key);
}
