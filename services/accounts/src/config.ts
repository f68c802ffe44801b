import { parse, type ConfigOf } from "@gateway/platform";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function mongoUrl(raw: string): string {
  if (!/^mongodb(\+srv)?:\/\/\S+$/.test(raw)) throw new Error("must be a mongodb:// or mongodb+srv:// URL");
  return raw;
}

/** Environment of the accounts process (distributed mode). */
export const accountsConfigSpec = {
  port: { env: "PORT", description: "gRPC/Connect port", default: "50051", parse: parse.port },
  host: { env: "HOST", description: "address to listen on", default: "127.0.0.1", parse: parse.string },
  // May embed database credentials: never echoed in errors.
  mongodbUrl: { env: "MONGODB_URL", description: "MongoDB connection URL", secret: true, parse: mongoUrl },
  mongodbDatabase: {
    env: "MONGODB_DATABASE",
    description: "database of the accounts service",
    default: "gateway_accounts",
    parse: parse.string,
  },
  demo: { env: "GATEWAY_DEMO", description: "seed the verified demo merchant at start", default: "true", parse: parse.boolean },
  demoTestKey: {
    env: "GATEWAY_DEMO_TEST_KEY",
    description: "test key of the demo merchant, sk_test_ + 44 base62 characters (random when unset)",
    optional: true as const,
    secret: true,
    // Its format is checked by seedDemoMerchant, whose error explains the format; a secret
    // field's config error could only say "invalid".
    parse: parse.string,
  },
  logLevel: { env: "LOG_LEVEL", description: "log level", default: "info", parse: parse.oneOf(...LOG_LEVELS) },
};

export type AccountsConfig = ConfigOf<typeof accountsConfigSpec>;
