import { GatewayError } from "@gateway/platform";
import type { AccountScope, Session } from "../domain/session.js";
import type { SessionRepository } from "./ports.js";

/** The session of this account and mode; NOT_FOUND for any other (no existence leak). */
export async function getSession(repo: SessionRepository, scope: AccountScope, id: string): Promise<Session> {
  const session = id === "" ? undefined : await repo.findById(scope, id);
  if (!session) throw GatewayError.notFound("session", id);
  return session;
}
