import { parse, readConfig, type ConfigOf } from "@gateway/platform";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function positiveInt(raw: string): number {
  const n = parse.int(raw);
  if (n < 1) throw new Error(`${n} must be at least 1`);
  return n;
}

/** The edge's environment (distributed mode); every variable is documented in the README. */
export const edgeConfigSpec = {
  port: { env: "PORT", description: "HTTP port of the public API", default: "8080", parse: parse.port },
  host: { env: "HOST", description: "interface to bind", default: "127.0.0.1", parse: parse.string },
  accountsUrl: { env: "ACCOUNTS_URL", description: "accounts service (gRPC)", default: "http://127.0.0.1:50051", parse: parse.url },
  sessionsUrl: { env: "SESSIONS_URL", description: "sessions service (gRPC)", default: "http://127.0.0.1:50052", parse: parse.url },
  publicUrl: { env: "GATEWAY_PUBLIC_URL", description: "public base URL of the gateway", default: "http://localhost:8080", parse: parse.url },
  errorsUrl: {
    env: "GATEWAY_ERRORS_URL",
    description: "base of problem type URIs (default <GATEWAY_PUBLIC_URL>/errors)",
    optional: true,
    parse: parse.url,
  },
  adminToken: {
    env: "GATEWAY_ADMIN_TOKEN",
    description: "bearer token of the admin API; the admin API is disabled when unset",
    optional: true,
    secret: true,
    parse: parse.string,
  },
  maxBodyBytes: { env: "GATEWAY_MAX_BODY_BYTES", description: "largest request body accepted", default: "262144", parse: positiveInt },
  authCacheTtlMs: {
    env: "GATEWAY_AUTH_CACHE_TTL",
    description: "how long a successful API key lookup is reused (bounds how late a revocation takes effect)",
    default: "5s",
    parse: parse.duration,
  },
  logLevel: { env: "LOG_LEVEL", description: "pino log level", default: "info", parse: parse.oneOf(...LOG_LEVELS) },
} as const;

export type EdgeConfig = Omit<ConfigOf<typeof edgeConfigSpec>, "errorsUrl"> & { errorsUrl: string };

/** Reads and validates the edge's environment, resolving the errors URL default. */
export function readEdgeConfig(env: NodeJS.ProcessEnv = process.env): EdgeConfig {
  const config = readConfig(edgeConfigSpec, env);
  return { ...config, errorsUrl: config.errorsUrl ?? `${config.publicUrl}/errors` };
}
