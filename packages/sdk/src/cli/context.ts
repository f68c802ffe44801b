import { Gateway } from "../client.js";
import { type CliConfig, configPath, DEFAULT_BASE_URL, readConfig } from "./config-file.js";
import type { Output } from "./output.js";

/** What every command gets: its output, where the config lives, and how to reach the gateway. */
export interface CliContext {
  out: Output;
  env: NodeJS.ProcessEnv;
  configPath: string;
  /** --api-key / --base-url given on the command line. */
  flags: { apiKey?: string; baseUrl?: string };
  signal: AbortSignal;
  readStdin(): Promise<string>;
}

export class UsageError extends Error {}

export function contextConfig(ctx: Pick<CliContext, "env" | "configPath">): CliConfig {
  return readConfig(ctx.configPath);
}

/** The key and URL to use: flags, then GATEWAY_API_KEY / GATEWAY_URL, then the login config. */
export function credentials(ctx: CliContext): { apiKey: string; baseUrl: string } {
  const stored = readConfig(ctx.configPath);
  const apiKey = ctx.flags.apiKey ?? ctx.env.GATEWAY_API_KEY ?? stored.api_key;
  if (!apiKey) throw new UsageError("No API key: run `gateway login` first, or set GATEWAY_API_KEY.");
  return { apiKey, baseUrl: ctx.flags.baseUrl ?? ctx.env.GATEWAY_URL ?? stored.base_url ?? DEFAULT_BASE_URL };
}

export function gatewayFor(ctx: CliContext): Gateway {
  return new Gateway(credentials(ctx));
}

export { configPath };
