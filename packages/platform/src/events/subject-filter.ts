/**
 * NATS subject matching for the in-memory bus: `*` matches one token, `>` (last token only)
 * matches one or more tokens. Same rules as JetStream consumer filters.
 */
export function subjectMatches(filter: string, subject: string): boolean {
  const f = filter.split(".");
  const s = subject.split(".");
  for (let i = 0; i < f.length; i++) {
    const token = f[i];
    if (token === ">") return i === f.length - 1 && s.length > i;
    if (i >= s.length) return false;
    if (token !== "*" && token !== s[i]) return false;
  }
  return f.length === s.length;
}

export function assertValidSubject(subject: string, allowWildcards: boolean): void {
  const tokens = subject.split(".");
  const bad =
    subject.length === 0 ||
    /\s/.test(subject) ||
    tokens.some(
      (t, i) =>
        t === "" || (!allowWildcards && (t === "*" || t === ">")) || (t === ">" && i !== tokens.length - 1),
    );
  if (bad) throw new Error(`'${subject}' is not a valid ${allowWildcards ? "subject filter" : "subject"}`);
}
