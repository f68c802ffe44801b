import { copyRecord } from "@gateway/platform";
import type { BusinessVerificationRepository } from "../../app/ports.js";
import type { BusinessVerification } from "../../domain/business-verification.js";

/** Verifications by merchant id; each method runs without awaiting, so it is atomic here. */
export class InMemoryBusinessVerificationRepository implements BusinessVerificationRepository {
  private readonly byMerchant = new Map<string, BusinessVerification>();

  async save(verification: BusinessVerification): Promise<void> {
    this.byMerchant.set(verification.merchantId, copyRecord(verification));
  }

  async find(merchantId: string): Promise<BusinessVerification | undefined> {
    const found = this.byMerchant.get(merchantId);
    return found && copyRecord(found);
  }

  async listPending(limit: number): Promise<BusinessVerification[]> {
    return [...this.byMerchant.values()]
      .filter((v) => v.status === "pending")
      .sort(
        (a, b) => a.submittedAt.getTime() - b.submittedAt.getTime() || (a.merchantId < b.merchantId ? -1 : 1),
      )
      .slice(0, limit)
      .map((v) => copyRecord(v));
  }

  async decide(
    merchantId: string,
    submittedAt: Date,
    decision: { status: "approved" | "rejected"; decidedAt: Date; reason?: string },
  ): Promise<BusinessVerification | undefined> {
    const found = this.byMerchant.get(merchantId);
    if (found?.status !== "pending" || found.submittedAt.getTime() !== submittedAt.getTime())
      return undefined;
    found.status = decision.status;
    found.decidedAt = new Date(decision.decidedAt.getTime());
    if (decision.reason !== undefined) found.reason = decision.reason;
    else delete found.reason;
    return copyRecord(found);
  }
}
