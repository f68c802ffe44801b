import type { ServiceImpl } from "@connectrpc/connect";
import type { Clock } from "@gateway/platform";
import type { SessionService } from "@gateway/proto";
import { cancelSession } from "../app/cancel-session.js";
import { createSession } from "../app/create-session.js";
import { getSession } from "../app/get-session.js";
import { listSessions } from "../app/list-sessions.js";
import type { ExchangeRateProvider, SessionRepository, SessionsSettings } from "../app/ports.js";
import { createInputFromProto, listQueryFromProto, scopeFromProto } from "./request-from-proto.js";
import { sessionToProto } from "./session-to-proto.js";

export interface SessionServiceDeps {
  repo: SessionRepository;
  rates: ExchangeRateProvider;
  clock: Clock;
  settings: SessionsSettings;
}

/** Connect handlers for SessionService: proto in, use case, proto out. No rules live here. */
export function createSessionServiceHandlers(deps: SessionServiceDeps): ServiceImpl<typeof SessionService> {
  const { repo, rates, clock, settings } = deps;
  const toProto = (s: Parameters<typeof sessionToProto>[0]) => sessionToProto(s, settings.publicBaseUrl);
  return {
    async createSession(req) {
      const outcome = await createSession({ repo, rates, clock, lifetimes: settings }, createInputFromProto(req));
      return { session: toProto(outcome.session), created: outcome.created };
    },
    async getSession(req) {
      return { session: toProto(await getSession(repo, scopeFromProto(req.scope), req.sessionId)) };
    },
    async listSessions(req) {
      const page = await listSessions(repo, scopeFromProto(req.scope), listQueryFromProto(req));
      return {
        sessions: page.sessions.map(toProto),
        pageInfo: { hasMore: page.hasMore, nextCursor: page.nextCursor ?? "" },
      };
    },
    async cancelSession(req) {
      return { session: toProto(await cancelSession(repo, clock, scopeFromProto(req.scope), req.sessionId)) };
    },
  };
}
