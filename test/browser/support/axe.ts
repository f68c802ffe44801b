import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * Runs axe-core (pinned in package.json) on the page as it is and returns the serious and
 * critical violations. The script is evaluated through the DevTools protocol, not added as a
 * <script>: the pages' CSP allows no script, and that policy is what is being tested with them.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run: (context: unknown, options: unknown) => Promise<{ violations: unknown[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ["violations"],
    });
    return result.violations;
  })) as AxeViolation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
