import { type PageQuery, readNewestFirstPage } from "@gateway/platform";
import type { AccountScope, Session } from "../domain/session.js";
import type { SessionListFilter, SessionRepository } from "./ports.js";

export interface ListSessionsQuery extends PageQuery {
  filter: SessionListFilter;
}

export interface SessionList {
  sessions: Session[];
  hasMore: boolean;
  /** Id of the last session when there is more; pass it back as `startingAfter`. */
  nextCursor?: string;
}

/** One page of an account's sessions, newest first; the cursor is a session of this account and mode. */
export async function listSessions(
  repo: SessionRepository,
  scope: AccountScope,
  query: ListSessionsQuery,
): Promise<SessionList> {
  const { items, ...page } = await readNewestFirstPage(query, {
    noun: "a session",
    findCursor: (id) => repo.findById(scope, id),
    read: async (window) => {
      const { sessions, hasMore } = await repo.list(scope, query.filter, window);
      return { items: sessions, hasMore };
    },
  });
  return { sessions: items, ...page };
}
