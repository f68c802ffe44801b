import { parseDuration } from "./durations.js";

/** A config value the process cannot start with. Names the variable, never echoes secrets. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export interface ConfigField<T> {
  /** Environment variable name. */
  env: string;
  description: string;
  /** Raw default; absent = required. */
  default?: string;
  /** Secret values are never included in error messages. */
  secret?: boolean;
  parse: (raw: string) => T;
}

/** Optional field: the value is undefined when the variable is unset or empty. */
export interface OptionalConfigField<T> extends Omit<ConfigField<T>, "default"> {
  optional: true;
}

export type ConfigSpec = Record<string, ConfigField<unknown> | OptionalConfigField<unknown>>;

export type ConfigOf<S extends ConfigSpec> = {
  [K in keyof S]: S[K] extends OptionalConfigField<infer T>
    ? T | undefined
    : S[K] extends ConfigField<infer T>
      ? T
      : never;
};

/**
 * Reads and validates every field at once; throws one ConfigError listing every bad or
 * missing variable, so an operator fixes them in one go.
 */
export function readConfig<S extends ConfigSpec>(spec: S, env: NodeJS.ProcessEnv = process.env): ConfigOf<S> {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, field] of Object.entries(spec)) {
    const raw = env[field.env];
    const given = raw !== undefined && raw !== "";
    if (!given) {
      if ("optional" in field) {
        out[key] = undefined;
        continue;
      }
      if (field.default === undefined) {
        problems.push(`${field.env} is required (${field.description})`);
        continue;
      }
    }
    const text = given ? raw : (field as ConfigField<unknown>).default!;
    try {
      out[key] = field.parse(text);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      problems.push(field.secret ? `${field.env} is invalid` : `${field.env} is invalid: ${why}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
  return out as ConfigOf<S>;
}

/** Parsers for the shapes our configuration uses. Each throws with a reason on bad input. */
/** The pino levels LOG_LEVEL accepts. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const parse = {
  string: (raw: string): string => raw,
  int: (raw: string): number => {
    if (!/^-?\d+$/.test(raw)) throw new Error(`'${raw}' is not an integer`);
    return Number(raw);
  },
  port: (raw: string): number => {
    const n = parse.int(raw);
    if (n < 0 || n > 65535) throw new Error(`${n} is not a port (0-65535)`);
    return n;
  },
  duration: parseDuration,
  durationList: (raw: string): number[] => raw.split(",").map((part) => parseDuration(part)),
  boolean: (raw: string): boolean => {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    throw new Error(`'${raw}' is not a boolean (use 1/0, true/false, on/off)`);
  },
  url: (raw: string): string => {
    const u = new URL(raw);
    return u.toString().replace(/\/$/, "");
  },
  /** A whole number of at least 1. */
  positiveInt: (raw: string): number => {
    const n = parse.int(raw);
    if (n < 1) throw new Error(`${n} must be at least 1`);
    return n;
  },
  /** A duration such as 200ms, 30m or 24h, never zero. */
  positiveDuration: (raw: string): number => {
    const ms = parseDuration(raw);
    if (ms <= 0) throw new Error("must be longer than zero");
    return ms;
  },
  mongoUrl: (raw: string): string => {
    if (!/^mongodb(\+srv)?:\/\/\S+$/.test(raw)) throw new Error("must be a mongodb:// or mongodb+srv:// URL");
    return raw;
  },
  /** One or more NATS server URLs, comma-separated. */
  natsUrls: (raw: string): string => {
    for (const url of raw.split(",")) {
      if (!/^(nats|tls|wss?):\/\/\S+$/.test(url.trim()))
        throw new Error("must be nats:// URLs, separated by commas");
    }
    return raw;
  },
  logLevel: (raw: string): LogLevel => parse.oneOf(...LOG_LEVELS)(raw),
  oneOf:
    <T extends string>(...allowed: T[]) =>
    (raw: string): T => {
      if (!(allowed as string[]).includes(raw))
        throw new Error(`'${raw}' is not one of ${allowed.join(", ")}`);
      return raw as T;
    },
};

/**
 * For a process's entry point: reads the config or, when it is invalid, prints the message
 * (which names every bad variable and never echoes a secret) and exits with status 1.
 */
export function readConfigOrExit<S extends ConfigSpec>(
  spec: S,
  env: NodeJS.ProcessEnv = process.env,
): ConfigOf<S> {
  try {
    return readConfig(spec, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

/**
 * MANAGEMENT_PORT, the port of a process's management listener (Prometheus `GET /metrics`).
 * Each service has its own default (edge 9460, accounts 9461, sessions 9462, refunds 9463,
 * webhooks 9464), so a stack on one host runs with defaults; the RPC or public port never serves metrics.
 */
export function managementPortField(defaultPort: number) {
  return {
    env: "MANAGEMENT_PORT",
    description:
      "port of the management listener (GET /metrics for Prometheus), bound to HOST; 0 = a free port",
    default: String(defaultPort),
    parse: parse.port,
  };
}
