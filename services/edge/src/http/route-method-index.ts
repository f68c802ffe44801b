/**
 * Remembers which methods each route pattern answers, so that a request for a known path with
 * another method gets 405 with `Allow` (fastify itself answers 404). Patterns use fastify's
 * syntax; only `:param` and a trailing `*` occur in this service.
 */
export class RouteMethodIndex {
  private readonly routes: Array<{ pattern: RegExp; methods: Set<string> }> = [];
  private readonly byUrl = new Map<string, Set<string>>();

  add(methods: string | string[], url: string): void {
    let known = this.byUrl.get(url);
    if (!known) {
      known = new Set();
      this.byUrl.set(url, known);
      this.routes.push({ pattern: compilePattern(url), methods: known });
    }
    for (const method of Array.isArray(methods) ? methods : [methods]) known.add(method.toUpperCase());
  }

  /** Every method some route answers for this exact path, sorted; empty for unknown paths. */
  allowedMethods(path: string): string[] {
    const allowed = new Set<string>();
    for (const route of this.routes) {
      if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method);
    }
    return [...allowed].sort();
  }
}

function compilePattern(url: string): RegExp {
  const source = url
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":")) return "[^/]+";
      if (segment === "*") return ".*";
      return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}$`);
}
