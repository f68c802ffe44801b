import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** Served at this path; pages link it with `?v=<content hash>`, so it can be cached for good. */
export const STYLESHEET_PATH = "/checkout/assets/checkout.css";

export interface Stylesheet {
  css: string;
  /** The URL pages link: the path plus a content hash, so a changed file is a new URL. */
  href: string;
}

/** Reads the one stylesheet shipped with the edge (self-hosted: nothing loads from elsewhere). */
export function loadStylesheet(): Stylesheet {
  const css = readFileSync(new URL("./assets/checkout.css", import.meta.url), "utf8");
  const version = createHash("sha256").update(css).digest("hex").slice(0, 12);
  return { css, href: `${STYLESHEET_PATH}?v=${version}` };
}
