/**
 * Sets `key` on `target` as an own, enumerable data field, whatever the key.
 * Assignment would treat a `__proto__` key (which `JSON.parse` makes from a
 * model's or a client's text) as the object's prototype: the field would
 * vanish from checks that read own keys, and its value would show through
 * every read of a missing field. Other keys are assigned, the fast path.
 */
export function setOwnField(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
