/**
 * The key whose value is `value` in a name → value table (e.g. a domain status → proto enum
 * table read backwards, for a filter), or undefined when none has it.
 */
export function keyOfValue<K extends string, V>(table: { readonly [key in K]: V }, value: V): K | undefined {
  for (const [key, candidate] of Object.entries(table) as Array<[K, V]>) if (candidate === value) return key;
  return undefined;
}
