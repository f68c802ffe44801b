import type { Client } from "@connectrpc/connect";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Session, SessionService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { routeSchema } from "../api/operations.js";
import { requireCaller } from "../auth/authenticated-caller.js";
import { rawBodyText } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import { mapCreateSessionBody } from "../mapping/create-session-request.js";
import { mapListSessionsQuery } from "../mapping/list-sessions-query.js";
import { sessionToJson } from "../mapping/session-json.js";

/**
 * Payment session endpoints (docs/api/sessions.md), registered under
 * /api/v1 behind the API key hook. Each path is registered exactly as docs/api/README.md writes it,
 * trailing slash included.
 */
export function registerSessionsRoutes(app: FastifyInstance, sessions: Client<typeof SessionService>): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // The route schema validates the body (api/schemas/sessions.ts); the service judges meaning.
  api.post("/gateway/sessions/", { schema: routeSchema("createSession") }, async (request, reply) => {
    const { scope } = requireCaller(request);
    const response = await sessions.createSession(
      mapCreateSessionBody(request.body, rawBodyText(request), scope),
    );
    const session = required(response.session);
    // 201 when this call created the session, 200 for an idempotent repeat.
    if (response.created)
      reply.header("location", `/api/v1/gateway/sessions/${encodeURIComponent(session.id)}/`);
    return sendJson(reply, response.created ? 201 : 200, sessionToJson(session));
  });

  api.get("/gateway/sessions/list/", { schema: routeSchema("listSessions") }, async (request, reply) => {
    const { scope } = requireCaller(request);
    const listRequest = mapListSessionsQuery(request.query as Record<string, unknown>, scope);
    const response = await sessions.listSessions(listRequest);
    const hasMore = response.pageInfo?.hasMore ?? false;
    const nextCursor = response.pageInfo?.nextCursor ?? "";
    return sendJson(reply, 200, {
      data: response.sessions.map(sessionToJson),
      has_more: hasMore,
      next_cursor: hasMore && nextCursor !== "" ? nextCursor : null,
    });
  });

  api.get("/gateway/sessions/:session_id/", { schema: routeSchema("getSession") }, async (request, reply) => {
    const { scope } = requireCaller(request);
    const response = await sessions.getSession({ scope, sessionId: request.params.session_id });
    return sendJson(reply, 200, sessionToJson(required(response.session)));
  });

  // docs/api/sessions.md#cancel-a-session: no request body; an empty body or `{}` is accepted (the route schema's NoBody).
  api.post(
    "/gateway/sessions/:session_id/cancel/",
    { schema: routeSchema("cancelSession") },
    async (request, reply) => {
      const { scope } = requireCaller(request);
      const response = await sessions.cancelSession({ scope, sessionId: request.params.session_id });
      return sendJson(reply, 200, sessionToJson(required(response.session)));
    },
  );
}

function required(session: Session | undefined): Session {
  if (!session) throw new Error("sessions service answered without a session");
  return session;
}
