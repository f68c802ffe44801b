/**
 * The one validator for every URL a merchant gives the gateway: session return, cancel and
 * webhook URLs and webhook endpoints. The WHATWG URL parser is forgiving on purpose (it turns
 * `http:evil.example` and `https:\\evil.example` into ordinary URLs and keeps `;`, `,` and `'`
 * in host names), so the text is checked as written first, and the parser only confirms it.
 */
export const MAX_URL_LENGTH = 2048;

export interface HttpUrlRules {
  /** Plain http is refused (live mode). */
  httpsOnly?: boolean;
  /** A #fragment is refused where no browser reads it (server-to-server deliveries). */
  forbidFragment?: boolean;
}

/** A URL that passed carries the parser's serialisation of it (`href`), as links are written. */
export type HttpUrlCheck = Readonly<{ ok: true; href: string } | { ok: false; message: string }>;

/**
 * URLs that passed, by rule set: a merchant sends the same return, cancel and webhook URLs on
 * every request, so each is parsed once rather than per create
 * (docs/decisions.md#merchant-urls-are-checked-once-each). Bounded: the oldest entry makes room.
 */
const PASSED_LIMIT = 1024;
const passed = new Map<string, HttpUrlCheck>();

// C0 and C1 controls, space and the other white space, and the bidirectional formatting
// characters (U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069) that make a URL read differently
// from what it is.
const FORBIDDEN_CHARACTERS =
  /[\u0000-\u0020\u007f-\u00a0\u061c\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/u;
// Scheme, "//", authority, then path, query and fragment: the authority ends at the first / ? #.
const ABSOLUTE_HTTP = /^(https?):\/\/([^/?#]*)(.*)$/isu;
const PORT = /^[0-9]{1,5}$/;
// A DNS host name in ASCII (letters, digits, hyphens; labels of 1-63, not starting or ending
// with a hyphen), as the parser gives it after IDNA; an IPv4 address passes this too.
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// What may appear in the host as written: ASCII host-name characters, dots, or any non-ASCII
// letter (an internationalised name, converted by the parser). No `;`, `,`, `'`, `%`, `\` ...
// One character class, not an alternation: V8 runs it as one tight loop.
const WRITTEN_HOST = /^[a-z0-9.\u0080-\u{10ffff}-]+$/iu;
const NUMERIC_LABEL = /^(?:[0-9]+|0x[0-9a-f]*)$/i;
const ABSOLUTE = "must be an absolute http:// or https:// URL.";
const INVALID_HOST = "must name a valid host (a DNS name or an IP address).";

const fail = (message: string): HttpUrlCheck => ({ ok: false, message });

export function checkHttpUrl(raw: string, rules: HttpUrlRules = {}): HttpUrlCheck {
  // The rules take the key's first two characters, so two rule sets never share an entry.
  const key = `${rules.httpsOnly ? "s" : "-"}${rules.forbidFragment ? "f" : "-"}|${raw}`;
  const known = passed.get(key);
  if (known !== undefined) return known;
  const checked = parseHttpUrl(raw, rules);
  if (checked.ok) {
    if (passed.size >= PASSED_LIMIT) passed.delete(passed.keys().next().value as string);
    passed.set(key, checked);
  }
  return checked;
}

function parseHttpUrl(raw: string, rules: HttpUrlRules): HttpUrlCheck {
  if (raw.length > MAX_URL_LENGTH) return fail(`must be at most ${MAX_URL_LENGTH} characters.`);
  if (FORBIDDEN_CHARACTERS.test(raw))
    return fail("must not contain spaces, control characters or bidirectional formatting characters.");
  if (raw.includes("\\")) return fail(ABSOLUTE);
  const parts = ABSOLUTE_HTTP.exec(raw);
  if (!parts) return fail(ABSOLUTE);
  const [, scheme, authority, rest] = parts as unknown as [string, string, string, string];
  if (authority.includes("@")) return fail("must not contain a user name or password.");
  if (rules.forbidFragment && rest.includes("#")) return fail("must not contain a #fragment.");
  if (rules.httpsOnly && scheme.toLowerCase() !== "https") return fail("must use https:// in live mode.");

  const hostCheck = checkWrittenHost(authority);
  if (hostCheck !== undefined) return fail(hostCheck);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(ABSOLUTE);
  }
  if (!url.hostname.startsWith("[")) {
    const name = url.hostname.endsWith(".") ? url.hostname.slice(0, -1) : url.hostname;
    if (name.length > 253 || !name.split(".").every((label) => LABEL.test(label))) {
      return fail(INVALID_HOST);
    }
  }
  return Object.freeze({ ok: true, href: url.href });
}

/** The authority as written: `host`, `host:port` or `[ipv6]:port`; undefined when fine. */
function checkWrittenHost(authority: string): string | undefined {
  let host = authority;
  let port: string | undefined;
  if (authority.startsWith("[")) {
    const end = authority.indexOf("]");
    if (end < 0) return INVALID_HOST;
    host = authority.slice(0, end + 1);
    const after = authority.slice(end + 1);
    if (after !== "") {
      if (!after.startsWith(":")) return INVALID_HOST;
      port = after.slice(1);
    }
    if (!/^\[[0-9a-f:.]+\]$/i.test(host)) return INVALID_HOST;
  } else {
    const colon = authority.lastIndexOf(":");
    if (colon >= 0) {
      host = authority.slice(0, colon);
      port = authority.slice(colon + 1);
    }
    if (host === "" || !WRITTEN_HOST.test(host)) return INVALID_HOST;
    // A host whose last label is a number is an IPv4 address to the parser: only the dotted
    // quad is taken, never shorthands such as `127.1` or `0x7f.1` that it would rewrite.
    const end = host.endsWith(".") ? host.length - 1 : host.length;
    const lastLabel = host.slice(host.lastIndexOf(".", end - 1) + 1, end);
    if (NUMERIC_LABEL.test(lastLabel) && !isDottedQuad(host)) return INVALID_HOST;
  }
  if (port !== undefined && (!PORT.test(port) || Number(port) > 65535))
    return "must have a port from 0 to 65535.";
  return undefined;
}

function isDottedQuad(host: string): boolean {
  const parts = host.split(".");
  return parts.length === 4 && parts.every((p) => /^(?:0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}
