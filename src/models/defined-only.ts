/** `value` without its `undefined` fields, so a response carries only what the provider gave (`null` is kept). */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
