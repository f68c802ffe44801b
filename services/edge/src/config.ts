import {
  type ConfigOf,
  defaultPublicUrl,
  jetstreamReplicasField,
  managementPortField,
  parse,
  readConfig,
  serviceAuthKeysField,
  serviceUrlField,
  shutdownConfigSpec,
} from "@gateway/platform";
import { parseRateLimitConfig } from "@gateway/rate-limiter";
import { parseCsrfSecret, parseOriginList } from "./checkout/checkout-config.js";

/** The edge's environment (distributed mode); every variable is documented in the README. */
export const edgeConfigSpec = {
  port: { env: "PORT", description: "HTTP port of the public API", default: "8080", parse: parse.port },
  host: { env: "HOST", description: "interface to bind", default: "127.0.0.1", parse: parse.string },
  managementPort: managementPortField(9460),
  accountsUrl: serviceUrlField("accounts"),
  sessionsUrl: serviceUrlField("sessions"),
  refundsUrl: serviceUrlField("refunds"),
  webhooksUrl: serviceUrlField("webhooks"),
  publicUrl: {
    env: "GATEWAY_PUBLIC_URL",
    description: "public base URL of the gateway; unset on the edge: where it listens (HOST and PORT)",
    optional: true,
    parse: parse.url,
  },
  serviceAuthKeys: serviceAuthKeysField("edge"),
  jetstreamReplicas: jetstreamReplicasField,
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
  maxBodyBytes: {
    env: "GATEWAY_MAX_BODY_BYTES",
    description: "largest request body accepted",
    default: "262144",
    parse: parse.positiveInt,
  },
  authCacheTtlMs: {
    env: "GATEWAY_AUTH_CACHE_TTL",
    description:
      "how long a successful API key lookup is reused (never past the key's expires_at; revocations reach every replica over NATS at once, this bounds one a replica missed)",
    default: "5s",
    parse: parse.duration,
  },
  logLevel: { env: "LOG_LEVEL", description: "pino log level", default: "info", parse: parse.logLevel },
  ...shutdownConfigSpec,
  csrfSecret: {
    env: "GATEWAY_CSRF_SECRET",
    description:
      "key (32+ characters) of the checkout forms' CSRF tokens; unset: random at start (then set it when running several edge replicas)",
    optional: true,
    secret: true,
    parse: parseCsrfSecret,
  },
  checkoutFormActionOrigins: {
    env: "GATEWAY_CHECKOUT_FORM_ACTION_ORIGINS",
    description:
      "comma-separated origins of acquirer card pages the checkout Pay form redirects to (CSP form-action); unset: the public URL's origin",
    optional: true,
    parse: parseOriginList,
  },
  rateLimits: {
    env: "GATEWAY_RATE_LIMITS",
    description:
      "rate limits per merchant account and key mode; unset: the spec's (req/s live 25 account-wide, 10 create, 5 refund; test 10, 5, 2), " +
      "`off`: no limits, or overrides like `live.account=50,test.create=5/10` (<rate>[/<burst>])",
    optional: true,
    parse: parseRateLimitConfig,
  },
  natsUrl: {
    env: "NATS_URL",
    description:
      "NATS server(s) with JetStream; the edge keeps its rate limit state there, shared by every replica (unset on the edge: per replica, in memory)",
    optional: true,
    parse: parse.string,
  },
} as const;

export type EdgeConfig = Omit<ConfigOf<typeof edgeConfigSpec>, "errorsUrl" | "publicUrl"> & {
  errorsUrl: string;
  publicUrl: string;
};

/** Reads and validates the edge's environment, resolving the public and errors URL defaults. */
export function readEdgeConfig(env: NodeJS.ProcessEnv = process.env): EdgeConfig {
  const config = readConfig(edgeConfigSpec, env);
  const publicUrl = config.publicUrl ?? defaultPublicUrl(config.host, config.port);
  return { ...config, publicUrl, errorsUrl: config.errorsUrl ?? `${publicUrl}/errors` };
}
