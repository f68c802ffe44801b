import type { Client } from "@connectrpc/connect";
import { fromConnectError, GatewayError, VIOLATIONS_OMITTED } from "@gateway/platform";
import type { Session, SessionService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { requireCaller } from "../auth/authenticated-caller.js";
import { requireJsonObjectBody, requireNoMembers } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import { mapCreateSessionBody, mergeValidationViolations } from "../mapping/create-session-request.js";
import { mapListSessionsQuery } from "../mapping/list-sessions-query.js";
import { sessionToJson } from "../mapping/session-json.js";

interface SessionParams {
  session_id: string;
}

/**
 * Payment session endpoints (spec 4.1-4.4, API-DECISIONS REST table), registered under
 * /api/v1 behind the API key hook. Each path is registered exactly as the spec writes it,
 * trailing slash included.
 */
export function registerSessionsRoutes(api: FastifyInstance, sessions: Client<typeof SessionService>): void {
  api.post("/gateway/sessions/", async (request, reply) => {
    const { scope } = requireCaller(request);
    const body = requireJsonObjectBody(request.body);
    const mapped = mapCreateSessionBody(body.value, body.text, scope);
    // A body with more faults than one answer reports is answered here: the service could only
    // add to what is left out.
    if (mapped.edgeOmitted > 0) {
      throw new GatewayError("VALIDATION_ERROR", "One or more fields failed validation.", {
        violations: mapped.edgeViolations,
        metadata: { [VIOLATIONS_OMITTED]: String(mapped.edgeOmitted) },
      });
    }
    let response;
    try {
      response = await sessions.createSession(mapped.request);
    } catch (err) {
      const gatewayError = fromConnectError(err);
      if (gatewayError.reason !== "VALIDATION_ERROR") throw gatewayError;
      throw new GatewayError("VALIDATION_ERROR", gatewayError.message, {
        violations: mergeValidationViolations(mapped.edgeViolations, gatewayError.violations),
        metadata: gatewayError.metadata,
        cause: gatewayError,
      });
    }
    const session = required(response.session);
    // 201 when this call created the session, 200 for an idempotent repeat.
    if (response.created) reply.header("location", `/api/v1/gateway/sessions/${encodeURIComponent(session.id)}/`);
    return sendJson(reply, response.created ? 201 : 200, sessionToJson(session));
  });

  api.get("/gateway/sessions/list/", async (request, reply) => {
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

  api.get<{ Params: SessionParams }>("/gateway/sessions/:session_id/", async (request, reply) => {
    const { scope } = requireCaller(request);
    const response = await sessions.getSession({ scope, sessionId: request.params.session_id });
    return sendJson(reply, 200, sessionToJson(required(response.session)));
  });

  // Spec 4.4: no request body; an empty body or `{}` is accepted.
  api.post<{ Params: SessionParams }>("/gateway/sessions/:session_id/cancel/", async (request, reply) => {
    const { scope } = requireCaller(request);
    requireNoMembers(request.body);
    const response = await sessions.cancelSession({ scope, sessionId: request.params.session_id });
    return sendJson(reply, 200, sessionToJson(required(response.session)));
  });
}

function required(session: Session | undefined): Session {
  if (!session) throw new Error("sessions service answered without a session");
  return session;
}
