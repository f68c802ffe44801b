import { parse, type ConfigOf } from "@gateway/platform";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function mongoUrl(raw: string): string {
  if (!/^mongodb(\+srv)?:\/\/\S+$/.test(raw)) throw new Error("must be a mongodb:// or mongodb+srv:// URL");
  return raw;
}

/** A lifetime: a duration such as 30m or 24h, never zero. */
function lifetime(raw: string): number {
  const ms = parse.duration(raw);
  if (ms <= 0) throw new Error("must be longer than zero");
  return ms;
}

/** An absolute http(s) base address, without a trailing slash. */
function publicUrl(raw: string): string {
  const url = parse.url(raw);
  if (!/^https?:\/\//.test(url)) throw new Error("must be an http:// or https:// URL");
  return url;
}

/** Environment of the sessions process (distributed mode). */
export const sessionsConfigSpec = {
  port: { env: "PORT", description: "gRPC/Connect port", default: "50052", parse: parse.port },
  host: { env: "HOST", description: "address to listen on", default: "127.0.0.1", parse: parse.string },
  // May embed database credentials: never echoed in errors.
  mongodbUrl: { env: "MONGODB_URL", description: "MongoDB connection URL", secret: true, parse: mongoUrl },
  mongodbDatabase: {
    env: "MONGODB_DATABASE",
    description: "database of the sessions service",
    default: "gateway_sessions",
    parse: parse.string,
  },
  accountsUrl: { env: "ACCOUNTS_URL", description: "address of the accounts service", default: "http://127.0.0.1:50051", parse: parse.url },
  publicBaseUrl: {
    env: "GATEWAY_PUBLIC_URL",
    description: "public base address of the gateway; checkout links are <it>/checkout/<token>",
    default: "http://localhost:8080",
    parse: publicUrl,
  },
  sessionLifetimeMs: { env: "GATEWAY_SESSION_LIFETIME", description: "session lifetime", default: "24h", parse: lifetime },
  checkoutLinkLifetimeMs: {
    env: "GATEWAY_CHECKOUT_LINK_LIFETIME",
    description: "lifetime of one hosted checkout link",
    default: "30m",
    parse: lifetime,
  },
  logLevel: { env: "LOG_LEVEL", description: "log level", default: "info", parse: parse.oneOf(...LOG_LEVELS) },
};

export type SessionsConfig = ConfigOf<typeof sessionsConfigSpec>;
