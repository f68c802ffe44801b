import { ConfigError } from "./read-config.js";

/** Wildcard and loopback interfaces: a browser on this machine reaches them as localhost. */
const LOCAL_INTERFACES = new Set(["127.0.0.1", "0.0.0.0", "::", "::1", "localhost"]);

/**
 * GATEWAY_PUBLIC_URL when it is not set: where the process itself listens (HOST and PORT), so
 * `PORT=3000 npm start` gives checkout links, the demo terminal and problem type URIs on port
 * 3000. PORT=0 (a port the system picks) has no such URL before listening: set the variable.
 */
export function defaultPublicUrl(host: string, port: number): string {
  if (port === 0)
    throw new ConfigError(
      "Invalid configuration:\n  - GATEWAY_PUBLIC_URL is required when PORT is 0 (the listening port is not known before start)",
    );
  const name = LOCAL_INTERFACES.has(host) ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return new URL(`http://${name}:${port}`).toString().replace(/\/$/, "");
}
