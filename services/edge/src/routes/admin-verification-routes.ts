import type { Client } from "@connectrpc/connect";
import {
  type BusinessVerification,
  type BusinessVerificationService,
  VerificationStatus,
} from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { requireJsonObjectBody, requireNoMembers } from "../http/json-body.js";
import { sendJson } from "../http/send-json.js";
import { AdminBodyReader } from "../mapping/admin-json.js";
import { formatTimestamp } from "../mapping/rfc3339.js";

const STATUS_NAMES: Record<VerificationStatus, string> = {
  [VerificationStatus.UNSPECIFIED]: "not_submitted",
  [VerificationStatus.NOT_SUBMITTED]: "not_submitted",
  [VerificationStatus.PENDING]: "pending",
  [VerificationStatus.APPROVED]: "approved",
  [VerificationStatus.REJECTED]: "rejected",
};

function verificationToJson(v: BusinessVerification | undefined) {
  if (!v) throw new Error("accounts service answered without a verification");
  return {
    merchant_id: v.merchantId,
    status: STATUS_NAMES[v.status],
    legal_name: v.details?.legalName ?? null,
    registration_number: v.details?.registrationNumber ?? null,
    country: v.details?.country ?? null,
    address: v.details?.address ?? null,
    website: v.details?.website || null,
    submitted_at: v.submittedAt ? formatTimestamp(v.submittedAt) : null,
    decided_at: v.decidedAt ? formatTimestamp(v.decidedAt) : null,
    reason: v.reason || null,
  };
}

/**
 * The operator's side of business verification (docs/api/admin.md#business-verification): the
 * queue of submitted details, and the decision. Inside the admin plugin, behind its token guard.
 */
export function registerAdminVerificationRoutes(
  admin: FastifyInstance,
  deps: { businessVerification: Client<typeof BusinessVerificationService> },
): void {
  const { businessVerification } = deps;

  admin.get("/business-verifications", async (_request, reply) => {
    const { verifications } = await businessVerification.listPendingVerifications({});
    return sendJson(reply, 200, { data: verifications.map(verificationToJson), has_more: false });
  });

  admin.get<{ Params: { id: string } }>("/merchants/:id/business-verification", async (request, reply) => {
    const { verification } = await businessVerification.getBusinessVerification({
      merchantId: request.params.id,
    });
    return sendJson(reply, 200, verificationToJson(verification));
  });

  admin.post<{ Params: { id: string } }>(
    "/merchants/:id/business-verification/approve",
    async (request, reply) => {
      requireNoMembers(request.body);
      const { verification } = await businessVerification.decideBusinessVerification({
        merchantId: request.params.id,
        approve: true,
        reason: "",
      });
      return sendJson(reply, 200, verificationToJson(verification));
    },
  );

  admin.post<{ Params: { id: string } }>(
    "/merchants/:id/business-verification/reject",
    async (request, reply) => {
      const reader = new AdminBodyReader(requireJsonObjectBody(request.body).value, ["reason"]);
      const reason = reader.requiredString("reason");
      reader.finish();
      const { verification } = await businessVerification.decideBusinessVerification({
        merchantId: request.params.id,
        approve: false,
        reason,
      });
      return sendJson(reply, 200, verificationToJson(verification));
    },
  );
}
