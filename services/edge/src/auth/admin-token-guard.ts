import { createHash, timingSafeEqual } from "node:crypto";
import { GatewayError } from "@gateway/platform";
import type { FastifyRequest } from "fastify";

/**
 * onRequest hook for /admin/v1: `Authorization: Bearer <GATEWAY_ADMIN_TOKEN>`. Both sides are
 * hashed first so the comparison is constant-time whatever the lengths.
 */
export function createAdminTokenGuard(adminToken: string) {
  const expected = digest(adminToken);
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    // Looser than API keys: an operator may pick any printable token.
    const token = typeof header === "string" ? /^Bearer +(\S+) *$/i.exec(header)?.[1] : undefined;
    if (token === undefined || !timingSafeEqual(digest(token), expected)) {
      throw new GatewayError("UNAUTHORIZED", "The admin token is missing or wrong.");
    }
  };
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}
