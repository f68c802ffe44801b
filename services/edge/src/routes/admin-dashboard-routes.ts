import type { Client } from "@connectrpc/connect";
import type { DashboardUsersService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { requireJsonObjectBody } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import {
  dashboardInvitationToJson,
  dashboardUserToJson,
  readDashboardInvitationBody,
} from "../mapping/admin-json.js";

export interface AdminDashboardRoutesDeps {
  dashboardUsers: Client<typeof DashboardUsersService>;
  /** Origin (and path prefix) of GATEWAY_PUBLIC_URL: invitation links point at the dashboard there. */
  publicUrl: string;
}

/** Where an invitation's link leads: the dashboard page that asks for a password. */
export function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/dashboard/invitations/${encodeURIComponent(token)}`;
}

/**
 * Dashboard users on the admin API (docs/api/admin.md#dashboard-users): the operator invites a
 * merchant's first owner and sees who has access. Registered inside the admin plugin, behind its
 * token guard.
 */
export function registerAdminDashboardRoutes(admin: FastifyInstance, deps: AdminDashboardRoutesDeps): void {
  admin.post<{ Params: { id: string } }>("/merchants/:id/dashboard-invitations", async (request, reply) => {
    const { email, role } = readDashboardInvitationBody(requireJsonObjectBody(request.body).value);
    const response = await deps.dashboardUsers.inviteUser({
      merchantId: request.params.id,
      email,
      role,
      invitedBy: "operator",
    });
    reply.header("cache-control", "no-store");
    return sendJson(
      reply,
      201,
      dashboardInvitationToJson(response.invitation, invitationUrl(deps.publicUrl, response.invitationToken)),
    );
  });

  admin.get<{ Params: { id: string } }>("/merchants/:id/dashboard-users", async (request, reply) => {
    const response = await deps.dashboardUsers.listUsers({ merchantId: request.params.id });
    return sendJson(reply, 200, { data: response.users.map(dashboardUserToJson), has_more: false });
  });
}
