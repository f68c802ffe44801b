import type { Client } from "@connectrpc/connect";
import type { Clock, Logger, ReadinessCheck } from "@gateway/platform";
import type { AccountsService, SessionService } from "@gateway/proto";

export interface EdgeAppConfig {
  /** `{errors_url}`: problem types are `<errorsUrl>/<suffix>`. */
  errorsUrl: string;
  /** Enables /admin/v1 when set. */
  adminToken?: string;
  maxBodyBytes: number;
  /** How long a successful API key lookup is reused (a revocation takes at most this long). */
  authCacheTtlMs: number;
}

export interface EdgeDeps {
  accounts: Client<typeof AccountsService>;
  sessions: Client<typeof SessionService>;
  logger: Logger;
  clock?: Clock;
  config: EdgeAppConfig;
  readiness?: ReadinessCheck[];
}
