import { randomBytes } from "node:crypto";

/** What the hosted checkout pages need from configuration (EdgeAppConfig.checkout). */
export interface CheckoutPagesConfig {
  /** GATEWAY_PUBLIC_URL: cookies are `Secure` when it is https; the default form-action origin. */
  publicUrl: string;
  /**
   * GATEWAY_CSRF_SECRET: key of the forms' CSRF tokens. When unset, a random key is drawn at
   * start: pages then only post back to the same edge process, so set it when running more
   * than one edge replica.
   */
  csrfSecret?: string;
  /**
   * GATEWAY_CHECKOUT_FORM_ACTION_ORIGINS: origins the Pay form may end up at. Browsers apply the
   * CSP form-action directive to the redirect that follows POST /pay, so the acquirer's card
   * page origin must be listed. Default: the public URL's origin (the simulator mounted at /epg).
   */
  formActionOrigins?: string[];
}

export interface ResolvedCheckoutConfig {
  publicOrigin: string;
  secureCookies: boolean;
  csrfSecret: string;
  formActionOrigins: string[];
}

const DEFAULT_PUBLIC_URL = "http://localhost:8080";
export const MIN_CSRF_SECRET_LENGTH = 32;

export function resolveCheckoutConfig(config: CheckoutPagesConfig | undefined): ResolvedCheckoutConfig {
  const publicUrl = new URL(config?.publicUrl ?? DEFAULT_PUBLIC_URL);
  const secret = config?.csrfSecret;
  if (secret !== undefined && secret.length < MIN_CSRF_SECRET_LENGTH) {
    throw new Error(`the CSRF secret must be at least ${MIN_CSRF_SECRET_LENGTH} characters`);
  }
  return {
    publicOrigin: publicUrl.origin,
    secureCookies: publicUrl.protocol === "https:",
    csrfSecret: secret ?? randomBytes(32).toString("base64url"),
    formActionOrigins: config?.formActionOrigins ?? [publicUrl.origin],
  };
}

/** Config parser of GATEWAY_CSRF_SECRET (the error never echoes the value). */
export function parseCsrfSecret(raw: string): string {
  if (raw.length < MIN_CSRF_SECRET_LENGTH)
    throw new Error(`must be at least ${MIN_CSRF_SECRET_LENGTH} characters`);
  return raw;
}

/** Config parser of GATEWAY_CHECKOUT_FORM_ACTION_ORIGINS: comma-separated http(s) origins. */
export function parseOriginList(raw: string): string[] {
  const origins = raw
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      let url: URL;
      try {
        url = new URL(part);
      } catch {
        throw new Error(`'${part}' is not a URL`);
      }
      if (url.protocol !== "https:" && url.protocol !== "http:")
        throw new Error(`'${part}' is not an http(s) origin`);
      if (
        url.pathname !== "/" ||
        url.search !== "" ||
        url.hash !== "" ||
        url.username !== "" ||
        url.password !== ""
      ) {
        throw new Error(`'${part}' must be an origin only (scheme, host and port)`);
      }
      return url.origin;
    });
  if (origins.length === 0) throw new Error("list at least one origin");
  return [...new Set(origins)];
}
