/**
 * Size limits of a create request (docs/api/limits.md#sizes) that must hold before any element is looked
 * at: a list or a document over its limit is one violation, whatever it contains.
 */
export const MAX_LINE_ITEMS = 100;
/** Metadata is for references and small notes, not documents: 20 KiB of JSON text at most. */
export const MAX_METADATA_BYTES = 20 * 1024;
