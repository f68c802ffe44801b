import { Gateway } from "../../client.js";
import { DEFAULT_BASE_URL, readConfig, writeConfig } from "../config-file.js";
import { type CliContext, UsageError } from "../context.js";

const TEST_KEY = /^sk_test_[A-Za-z0-9]{44}$/;

/**
 * `gateway login [--api-key sk_test_…] [--base-url URL]`: checks the key against the gateway and
 * stores it (0600). Test keys only: the CLI makes payments and forwards events, which has no place
 * near live money. Without --api-key the key is read from stdin, so it stays out of shell history.
 */
export async function login(ctx: CliContext): Promise<void> {
  const apiKey = (ctx.flags.apiKey ?? (await ctx.readStdin())).trim();
  if (!TEST_KEY.test(apiKey))
    throw new UsageError("gateway login takes a test key: sk_test_ followed by 44 letters and digits.");
  const stored = readConfig(ctx.configPath);
  const baseUrl = ctx.flags.baseUrl ?? ctx.env.GATEWAY_URL ?? stored.base_url ?? DEFAULT_BASE_URL;
  // One cheap authenticated read: a typo or a revoked key fails here, not at the first trigger.
  await new Gateway({ apiKey, baseUrl, maxRetries: 1 }).sessions.list({ limit: "1" });
  writeConfig(ctx.configPath, { ...stored, api_key: apiKey, base_url: baseUrl });
  const shown = `${apiKey.slice(0, 12)}…${apiKey.slice(-4)}`;
  ctx.out.result({ base_url: baseUrl, api_key: shown, config: ctx.configPath }, () =>
    [
      `${ctx.out.colour.green("✔")} Logged in to ${baseUrl} with ${shown}`,
      `  saved in ${ctx.configPath}`,
    ].join("\n"),
  );
}
