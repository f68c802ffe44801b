import { GatewayError } from "@gateway/platform";
import type { AccountScope, Session } from "../domain/session.js";
import type { SessionListFilter, SessionRepository } from "./ports.js";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface ListSessionsQuery {
  filter: SessionListFilter;
  /** 0 (or absent) means the default page size. */
  limit?: number;
  /** Id of the last session of the previous page. */
  startingAfter?: string;
}

export interface SessionList {
  sessions: Session[];
  hasMore: boolean;
  /** Id of the last session when there is more; pass it back as `startingAfter`. */
  nextCursor?: string;
}

/**
 * One page of sessions, newest first. The cursor is a session id of this account and mode;
 * paging by (created_at, id) position keeps pages stable while new sessions arrive.
 */
export async function listSessions(repo: SessionRepository, scope: AccountScope, query: ListSessionsQuery): Promise<SessionList> {
  const limit = query.limit === undefined || query.limit === 0 ? DEFAULT_PAGE_SIZE : query.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw GatewayError.validation([{ field: "limit", code: "invalid", message: `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}.` }]);
  }
  let after: { createdAt: Date; id: string } | undefined;
  if (query.startingAfter !== undefined && query.startingAfter !== "") {
    const cursor = await repo.findById(scope, query.startingAfter);
    if (!cursor) {
      throw GatewayError.validation([
        { field: "starting_after", code: "invalid", message: "starting_after must be the id of a session of this account." },
      ]);
    }
    after = { createdAt: cursor.createdAt, id: cursor.id };
  }
  const page = await repo.list(scope, query.filter, after ? { limit, after } : { limit });
  const last = page.sessions.at(-1);
  return {
    sessions: page.sessions,
    hasMore: page.hasMore,
    ...(page.hasMore && last ? { nextCursor: last.id } : {}),
  };
}
