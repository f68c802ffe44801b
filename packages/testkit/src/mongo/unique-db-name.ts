import { randomBytes } from "node:crypto";

// FerretDB's rule (^[a-zA-Z0-9_-]{1,63}$) is stricter than MongoDB's, so names follow it.
const MAX_LENGTH = 63;
const PREFIX_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A database name no other test uses: `test_<prefix>_<12 random hex chars>`. */
export function uniqueDbName(prefix: string): string {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new Error(
      `uniqueDbName: prefix must be letters, digits, "_" or "-", got ${JSON.stringify(prefix)}`,
    );
  }
  const name = `test_${prefix}_${randomBytes(6).toString("hex")}`;
  if (name.length > MAX_LENGTH) {
    throw new Error(
      `uniqueDbName: prefix ${JSON.stringify(prefix)} is too long (database names are at most ${MAX_LENGTH} characters)`,
    );
  }
  return name;
}
