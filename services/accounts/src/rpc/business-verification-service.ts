import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "@gateway/platform";
import {
  type BusinessVerification as BusinessVerificationMessage,
  BusinessVerificationSchema,
  type BusinessVerificationService,
  VerificationStatus,
} from "@gateway/proto";
import type { AccountsDeps } from "../app/accounts-deps.js";
import {
  decideBusinessVerification,
  getBusinessVerification,
  listPendingVerifications,
  submitBusinessDetails,
} from "../app/business-verifications.js";
import type { BusinessVerification } from "../domain/business-verification.js";

const STATUS: Record<BusinessVerification["status"], VerificationStatus> = {
  pending: VerificationStatus.PENDING,
  approved: VerificationStatus.APPROVED,
  rejected: VerificationStatus.REJECTED,
};

function toProto(v: BusinessVerification): BusinessVerificationMessage {
  return create(BusinessVerificationSchema, {
    merchantId: v.merchantId,
    status: STATUS[v.status],
    details: { ...v.details, website: v.details.website ?? "" },
    submittedAt: timestampFromDate(v.submittedAt),
    decidedAt: v.decidedAt ? timestampFromDate(v.decidedAt) : undefined,
    reason: v.reason ?? "",
  });
}

/** Business verification: the merchant's side (dashboard) and the operator's (admin API). */
export class BusinessVerificationRpc implements ServiceImpl<typeof BusinessVerificationService> {
  constructor(private readonly deps: AccountsDeps & { logger: Logger }) {}

  async submitBusinessDetails(req: {
    merchantId: string;
    details?: {
      legalName: string;
      registrationNumber: string;
      country: string;
      address: string;
      website: string;
    };
  }) {
    const verification = await submitBusinessDetails(this.deps, {
      merchantId: req.merchantId,
      legalName: req.details?.legalName ?? "",
      registrationNumber: req.details?.registrationNumber ?? "",
      country: req.details?.country ?? "",
      address: req.details?.address ?? "",
      website: req.details?.website ?? "",
    });
    this.deps.logger.info(
      { merchantId: verification.merchantId },
      "business details submitted for verification",
    );
    return { verification: toProto(verification) };
  }

  async getBusinessVerification(req: { merchantId: string }) {
    const verification = await getBusinessVerification(this.deps, req.merchantId);
    return {
      verification: verification
        ? toProto(verification)
        : create(BusinessVerificationSchema, {
            merchantId: req.merchantId,
            status: VerificationStatus.NOT_SUBMITTED,
          }),
    };
  }

  async listPendingVerifications() {
    return { verifications: (await listPendingVerifications(this.deps)).map(toProto) };
  }

  async decideBusinessVerification(req: { merchantId: string; approve: boolean; reason: string }) {
    const verification = await decideBusinessVerification(this.deps, req);
    this.deps.logger.info(
      { merchantId: verification.merchantId, status: verification.status },
      "business verification decided",
    );
    return { verification: toProto(verification) };
  }
}
