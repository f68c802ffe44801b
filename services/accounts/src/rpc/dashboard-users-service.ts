import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  AcceptInvitationResponseSchema,
  AuthenticateSessionResponseSchema,
  ChangePasswordResponseSchema,
  type DashboardSession as DashboardSessionProto,
  DashboardSessionSchema,
  type DashboardUser as DashboardUserProto,
  DashboardUserSchema,
  type DashboardUsersService,
  GetInvitationResponseSchema,
  type Invitation as InvitationProto,
  InvitationSchema,
  InviteUserResponseSchema,
  ListUsersResponseSchema,
  SignInResponseSchema,
  SignOutEverywhereResponseSchema,
  SignOutResponseSchema,
} from "@gateway/proto";
import type { AccountsDeps } from "../app/accounts-deps.js";
import type { DashboardDeps } from "../app/dashboard-ports.js";
import {
  acceptInvitation,
  authenticateDashboardSession,
  changePassword,
  inviteDashboardUser,
  listDashboardUsers,
  openInvitation,
  signIn,
  signOut,
  signOutEverywhere,
} from "../app/dashboard-users.js";
import type { DashboardSession, Invitation } from "../domain/dashboard/dashboard-credentials.js";
import type { DashboardUserView } from "../domain/dashboard/dashboard-user.js";

function userToProto(user: DashboardUserView): DashboardUserProto {
  return create(DashboardUserSchema, {
    id: user.id,
    merchantId: user.merchantId,
    email: user.email,
    role: user.role,
    createdAt: timestampFromDate(user.createdAt),
    passwordChangedAt: timestampFromDate(user.passwordChangedAt),
  });
}

function invitationToProto(invitation: Invitation): InvitationProto {
  return create(InvitationSchema, {
    id: invitation.id,
    merchantId: invitation.merchantId,
    email: invitation.email,
    role: invitation.role,
    expiresAt: timestampFromDate(invitation.expiresAt),
  });
}

function sessionToProto(session: DashboardSession, user: DashboardUserView): DashboardSessionProto {
  return create(DashboardSessionSchema, {
    user: userToProto(user),
    expiresAt: timestampFromDate(session.expiresAt),
  });
}

/** The dashboard's use cases over the accounts stores: users belong to existing merchants. */
export function dashboardDepsOf(deps: AccountsDeps): DashboardDeps {
  return {
    stores: deps.repos.dashboard,
    clock: deps.clock,
    merchantExists: async (merchantId) => (await deps.repos.merchants.findById(merchantId)) !== undefined,
  };
}

/** DashboardUsersService over Connect: proto in, use case, proto out. Errors are GatewayErrors. */
export class DashboardUsersRpc implements ServiceImpl<typeof DashboardUsersService> {
  private readonly deps: DashboardDeps;

  constructor(deps: AccountsDeps) {
    this.deps = dashboardDepsOf(deps);
  }

  async inviteUser(req: { merchantId: string; email: string; role: string; invitedBy: string }) {
    const { invitation, token } = await inviteDashboardUser(this.deps, req);
    return create(InviteUserResponseSchema, {
      invitation: invitationToProto(invitation),
      invitationToken: token,
    });
  }

  async getInvitation(req: { invitationToken: string }) {
    return create(GetInvitationResponseSchema, {
      invitation: invitationToProto(await openInvitation(this.deps, req.invitationToken)),
    });
  }

  async acceptInvitation(req: { invitationToken: string; password: string }) {
    const user = await acceptInvitation(this.deps, { token: req.invitationToken, password: req.password });
    return create(AcceptInvitationResponseSchema, { user: userToProto(user) });
  }

  async signIn(req: { email: string; password: string; clientAddress: string }) {
    const signedIn = await signIn(this.deps, req);
    return create(SignInResponseSchema, {
      sessionToken: signedIn.token,
      session: sessionToProto(signedIn.session, signedIn.user),
    });
  }

  async authenticateSession(req: { sessionToken: string }) {
    const { session, user } = await authenticateDashboardSession(this.deps, req.sessionToken);
    return create(AuthenticateSessionResponseSchema, { session: sessionToProto(session, user) });
  }

  async signOut(req: { sessionToken: string }) {
    await signOut(this.deps, req.sessionToken);
    return create(SignOutResponseSchema, {});
  }

  async signOutEverywhere(req: { sessionToken: string }) {
    await signOutEverywhere(this.deps, req.sessionToken);
    return create(SignOutEverywhereResponseSchema, {});
  }

  async changePassword(req: {
    sessionToken: string;
    currentPassword: string;
    newPassword: string;
    clientAddress: string;
  }) {
    const signedIn = await changePassword(this.deps, { token: req.sessionToken, ...req });
    return create(ChangePasswordResponseSchema, {
      sessionToken: signedIn.token,
      session: sessionToProto(signedIn.session, signedIn.user),
    });
  }

  async listUsers(req: { merchantId: string }) {
    return create(ListUsersResponseSchema, {
      users: (await listDashboardUsers(this.deps, req.merchantId)).map(userToProto),
    });
  }
}
