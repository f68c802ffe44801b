const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses "250ms", "10s", "30m", "24h", "2d" into milliseconds; throws on anything else. */
export function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) throw new Error(`'${text}' is not a duration (use e.g. 250ms, 10s, 30m, 24h)`);
  const value = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (!Number.isSafeInteger(value)) throw new Error(`'${text}' is too long a duration`);
  return value;
}
