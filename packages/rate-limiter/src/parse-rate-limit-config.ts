import {
  BUDGET_NAMES,
  type BudgetName,
  defaultRateLimitPolicy,
  type RateLimitPolicy,
  validateRateLimitPolicy,
} from "./rate-limit-policy.js";

const VARIABLE = "GATEWAY_RATE_LIMITS";
const RATE = /^(?:\d+(?:\.\d+)?|\.\d+)$/;
const BURST = /^\d+$/;

/**
 * Reads GATEWAY_RATE_LIMITS:
 * - unset or blank: the default limits of docs/api/limits.md (defaultRateLimitPolicy);
 * - "off" (any case): rate limiting disabled, for local load tests;
 * - otherwise comma-separated overrides `<live|test>.<account|create|refund>=<rate>[/<burst>]`,
 *   e.g. `live.account=50,test.create=5/10`. Budgets not named keep their default. Without
 *   `/burst` the burst is one second's worth of the rate (at least 1), as in the defaults.
 * Any malformed entry throws, naming the entry and the expected form.
 */
export function parseRateLimitConfig(raw: string | undefined): RateLimitPolicy | "off" {
  if (raw === undefined || raw.trim() === "") return clonePolicy(defaultRateLimitPolicy);
  if (raw.trim().toLowerCase() === "off") return "off";

  const policy = clonePolicy(defaultRateLimitPolicy);
  const seen = new Set<string>();
  for (const rawEntry of raw.split(",")) {
    const entry = rawEntry.trim();
    if (entry === "") throw configError(`empty entry in "${raw}"`);
    const eq = entry.indexOf("=");
    if (eq < 0) throw configError(`"${entry}" has no "="`);
    const name = entry.slice(0, eq).trim();
    const value = entry.slice(eq + 1).trim();

    const [mode, budget, ...rest] = name.split(".");
    if ((mode !== "live" && mode !== "test") || rest.length > 0) {
      throw configError(`"${name}" is not <live|test>.<budget>`);
    }
    if (!isBudgetName(budget)) {
      throw configError(
        `unknown budget "${budget ?? ""}" in "${name}" (budgets: ${BUDGET_NAMES.join(", ")})`,
      );
    }
    if (seen.has(name)) throw configError(`"${name}" is set twice`);
    seen.add(name);

    const [rateText = "", burstText, ...extra] = value.split("/").map((part) => part.trim());
    if (extra.length > 0 || !RATE.test(rateText)) {
      throw configError(`"${entry}": the value must be <requests per second>[/<burst>], e.g. 25 or 25/50`);
    }
    const ratePerSec = Number(rateText);
    if (ratePerSec <= 0) throw configError(`"${entry}": the rate must be greater than 0`);
    let burst = Math.max(1, Math.ceil(ratePerSec));
    if (burstText !== undefined) {
      if (!BURST.test(burstText) || Number(burstText) < 1) {
        throw configError(`"${entry}": the burst must be a whole number of requests >= 1`);
      }
      burst = Number(burstText);
    }
    policy[mode][budget] = { ratePerSec, burst };
  }
  validateRateLimitPolicy(policy, VARIABLE);
  return policy;
}

function isBudgetName(value: string | undefined): value is BudgetName {
  return value !== undefined && (BUDGET_NAMES as readonly string[]).includes(value);
}

function configError(detail: string): Error {
  return new Error(
    `${VARIABLE}: ${detail}. Expected "off" or comma-separated <live|test>.<account|create|refund>=<rate>[/<burst>], ` +
      `e.g. "live.account=25,test.create=5/10".`,
  );
}

function clonePolicy(policy: RateLimitPolicy): RateLimitPolicy {
  return structuredClone(policy);
}
