import { PUBLISHED_OUTBOX_KEPT } from "./ports.js";

/**
 * The outbox entries to keep: every pending one, and the newest PUBLISHED_OUTBOX_KEPT
 * published ones (by sequence), in their original order. Stores apply it in the same update
 * that marks an event published, so the outbox stays bounded.
 */
export function keepAfterPublish<T extends { sequence: number; published: boolean }>(
  entries: readonly T[],
): T[] {
  const published = entries.filter((e) => e.published).sort((a, b) => a.sequence - b.sequence);
  const dropped = new Set(published.slice(0, Math.max(0, published.length - PUBLISHED_OUTBOX_KEPT)));
  return entries.filter((e) => !dropped.has(e));
}
