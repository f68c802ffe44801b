import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** What `gateway login` stores: a test key and the gateway it belongs to. */
export interface CliConfig {
  api_key?: string;
  base_url?: string;
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

/** `$GATEWAY_CONFIG`, else `$XDG_CONFIG_HOME/gateway/config.json`, else `~/.config/gateway/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.GATEWAY_CONFIG) return env.GATEWAY_CONFIG;
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "gateway", "config.json");
}

export function readConfig(path: string): CliConfig {
  try {
    const parsed = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return typeof parsed === "object" && parsed !== null ? (parsed as CliConfig) : {};
  } catch {
    return {};
  }
}

/**
 * Writes the file readable by its owner only (0600, in a 0700 folder): it holds a secret key. The
 * mode is set again after writing, because `mode` only applies when the file is created.
 */
export function writeConfig(path: string, config: CliConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}
