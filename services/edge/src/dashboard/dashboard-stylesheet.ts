import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

export const DASHBOARD_STYLESHEET_PATH = "/dashboard/assets/dashboard.css";

/** The dashboard's own rules, served with a content hash in the URL so they can be cached for good. */
export function loadDashboardStylesheet(): { css: string; href: string } {
  const css = readFileSync(new URL("./assets/dashboard.css", import.meta.url), "utf8");
  const version = createHash("sha256").update(css).digest("hex").slice(0, 12);
  return { css, href: `${DASHBOARD_STYLESHEET_PATH}?v=${version}` };
}
