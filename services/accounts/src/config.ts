import { DEFAULT_SIMULATOR_CREDENTIALS, simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { type ConfigOf, parse, serviceProcessFields, shutdownConfigSpec } from "@gateway/platform";

// The simulator's built-in terminal; the standalone simulator reads the same two variables.
const SIMULATOR_TERMINAL = DEFAULT_SIMULATOR_CREDENTIALS[0]!;

/** Environment of the accounts process (distributed mode). */
export const accountsConfigSpec = {
  ...serviceProcessFields({ service: "accounts", port: 50051, managementPort: 9461 }),
  demo: {
    env: "GATEWAY_DEMO",
    description: "seed the verified demo merchant at start",
    default: "true",
    parse: parse.boolean,
  },
  demoTestKey: {
    env: "GATEWAY_DEMO_TEST_KEY",
    description: "test key of the demo merchant, sk_test_ + 44 base62 characters (random when unset)",
    optional: true as const,
    secret: true,
    // Its format is checked by seedDemoMerchant, whose error explains the format; a secret
    // field's config error could only say "invalid".
    parse: parse.string,
  },
  secretsKey: {
    env: "GATEWAY_SECRETS_KEY",
    description:
      "base64 of 32 random bytes (openssl rand -base64 32): AES-256-GCM key sealing terminal passwords; required unless GATEWAY_DEMO is on, which then uses a random key per start",
    optional: true as const,
    secret: true,
    // Checked when the secret box is built, with an error that explains the format; a secret
    // field's config error could only say "invalid".
    parse: parse.string,
  },
  secretsPreviousKeys: {
    env: "GATEWAY_SECRETS_PREVIOUS_KEYS",
    description:
      "comma-separated earlier GATEWAY_SECRETS_KEY values, still accepted for reading (key rotation)",
    optional: true as const,
    secret: true,
    parse: parse.string,
  },
  publicUrl: {
    env: "GATEWAY_PUBLIC_URL",
    description: "public base URL of the gateway",
    default: "http://localhost:8080",
    parse: parse.url,
  },
  demoTerminalUrl: {
    env: "GATEWAY_DEMO_TERMINAL_URL",
    description:
      "base URL of the demo merchant's test terminal (default <GATEWAY_PUBLIC_URL>/epg/rest, the EPG simulator behind the edge)",
    optional: true as const,
    parse: parse.url,
  },
  demoTerminalUsername: {
    env: "EPG_SIM_USERNAME",
    description:
      "terminal user name the EPG simulator accepts (accounts gives it to the demo merchant's test terminal)",
    default: SIMULATOR_TERMINAL.username,
    parse: parse.string,
  },
  demoTerminalPassword: {
    env: "EPG_SIM_PASSWORD",
    description:
      "terminal password the EPG simulator accepts (accounts gives it to the demo merchant's test terminal)",
    default: SIMULATOR_TERMINAL.password,
    secret: true,
    parse: parse.string,
  },
  logLevel: { env: "LOG_LEVEL", description: "log level", default: "info", parse: parse.logLevel },
  ...shutdownConfigSpec,
};

export type AccountsConfig = ConfigOf<typeof accountsConfigSpec>;

/** The demo merchant's test terminal: the EPG simulator unless GATEWAY_DEMO_TERMINAL_URL says otherwise. */
export function demoTerminalFromConfig(config: AccountsConfig): {
  baseUrl: string;
  username: string;
  password: string;
} {
  return {
    baseUrl: config.demoTerminalUrl ?? simulatorTerminalBaseUrl(config.publicUrl),
    username: config.demoTerminalUsername,
    password: config.demoTerminalPassword,
  };
}
