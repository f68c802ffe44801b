import { GatewayError } from "@gateway/platform";
import type { AccountScope, Refund } from "../domain/refund.js";
import type { RefundDeps } from "./refund-deps.js";

/** The most refunds one answer holds: a session seldom has more than a handful. */
export const MAX_SESSION_REFUNDS = 100;

/**
 * One session's refunds in the caller's scope, oldest first. Another account's session simply
 * has none here, so the answer never tells whether such a session exists.
 */
export async function listSessionRefunds(
  deps: Pick<RefundDeps, "refunds">,
  scope: AccountScope,
  input: { sessionId: string; limit: number },
): Promise<Refund[]> {
  const sessionId = input.sessionId.trim();
  const violations = [];
  if (sessionId === "")
    violations.push({ field: "session_id", code: "required", message: "session_id is required" });
  if (!Number.isInteger(input.limit) || input.limit < 1 || input.limit > MAX_SESSION_REFUNDS) {
    violations.push({
      field: "limit",
      code: "invalid",
      message: `limit must be an integer from 1 to ${MAX_SESSION_REFUNDS}`,
    });
  }
  if (violations.length > 0) throw GatewayError.validation(violations);
  return deps.refunds.listBySession(scope, sessionId, input.limit);
}
