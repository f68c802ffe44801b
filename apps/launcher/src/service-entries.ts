import { fileURLToPath } from "node:url";

/** Entry points of the distributed processes, resolved from this file so cwd does not matter. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export const serviceEntries = {
  accounts: `${repoRoot}services/accounts/src/main.ts`,
  sessions: `${repoRoot}services/sessions/src/main.ts`,
  refunds: `${repoRoot}services/refunds/src/main.ts`,
  webhooks: `${repoRoot}services/webhooks/src/main.ts`,
  edge: `${repoRoot}services/edge/src/main.ts`,
  // The test-mode acquirer, its own process as in production's test setups.
  "epg-simulator": `${repoRoot}apps/epg-simulator/src/simulator-main.ts`,
} as const;

export type ServiceName = keyof typeof serviceEntries;

/** Entry points of the two ways to run the gateway (npm start, npm run stack). */
export const launcherEntries = {
  embedded: `${repoRoot}apps/launcher/src/embedded-main.ts`,
  stack: `${repoRoot}apps/launcher/src/stack-main.ts`,
} as const;

/**
 * Where `npm run build` writes the JavaScript of a TypeScript entry: `<workspace>/src/<path>.ts`
 * becomes `<workspace>/dist/<path>.js` (each workspace compiles src/ to dist/).
 */
export function compiledEntry(entry: string): string {
  const compiled = entry.replace(/\/src\/(.+)\.ts$/, "/dist/$1.js");
  if (compiled === entry) throw new Error(`compiledEntry: ${entry} is not a .ts file under a src/ folder`);
  return compiled;
}
