import { type Client, Code, createClient } from "@connectrpc/connect";
import { fromConnectError, ManualClock } from "@gateway/platform";
import { AccountsService, BusinessVerificationService, VerificationStatus } from "@gateway/proto";
import { beforeEach, describe, expect, it } from "vitest";
import { connectErrorOf } from "./support/connect-error-of.js";
import { inProcessAccounts } from "./support/in-process-accounts.js";

const DETAILS = {
  legalName: "Librairie Al Kitab SARL",
  registrationNumber: "B0123456",
  country: "tn",
  address: "12 rue de Marseille, Tunis",
  website: "",
};

describe("BusinessVerificationService over Connect", () => {
  let accounts: Client<typeof AccountsService>;
  let verification: Client<typeof BusinessVerificationService>;
  let merchantId: string;

  beforeEach(async () => {
    const { transport } = inProcessAccounts(new ManualClock(Date.UTC(2026, 10, 23, 10)));
    accounts = createClient(AccountsService, transport);
    verification = createClient(BusinessVerificationService, transport);
    merchantId = (await accounts.createMerchant({ name: "Al Kitab" })).merchant!.id;
  });

  it("when nothing was submitted, then NOT_SUBMITTED; bad details are refused field by field", async () => {
    expect((await verification.getBusinessVerification({ merchantId })).verification?.status).toBe(
      VerificationStatus.NOT_SUBMITTED,
    );
    const err = await connectErrorOf(
      verification.submitBusinessDetails({
        merchantId,
        details: {
          legalName: "",
          registrationNumber: "x".repeat(65),
          country: "Tunisia",
          address: " ",
          website: "ftp://x",
        },
      }),
    );
    expect(fromConnectError(err).violations.map((v) => [v.field, v.code])).toEqual([
      ["legal_name", "required"],
      ["registration_number", "invalid"],
      ["country", "invalid"],
      ["address", "required"],
      ["website", "invalid"],
    ]);
    const unknown = await connectErrorOf(
      verification.submitBusinessDetails({ merchantId: "mer_nobody", details: DETAILS }),
    );
    expect(unknown.code).toBe(Code.NotFound);
  });

  it("submitted, rejected with a reason, corrected, approved: the merchant is then verified and can have live keys", async () => {
    const submitted = await verification.submitBusinessDetails({ merchantId, details: DETAILS });
    expect(submitted.verification?.status).toBe(VerificationStatus.PENDING);
    expect(submitted.verification?.details?.country).toBe("TN");
    expect((await verification.listPendingVerifications({})).verifications.map((v) => v.merchantId)).toEqual([
      merchantId,
    ]);
    const noReason = await connectErrorOf(
      verification.decideBusinessVerification({ merchantId, approve: false, reason: "" }),
    );
    expect(fromConnectError(noReason).violations.map((v) => v.field)).toEqual(["reason"]);
    const rejected = await verification.decideBusinessVerification({
      merchantId,
      approve: false,
      reason: "The registration number does not match the name.",
    });
    expect(rejected.verification?.status).toBe(VerificationStatus.REJECTED);
    expect((await connectErrorOf(accounts.createApiKey({ merchantId, livemode: true }))).code).toBe(
      Code.PermissionDenied,
    );
    const again = await connectErrorOf(
      verification.decideBusinessVerification({ merchantId, approve: true, reason: "" }),
    );
    expect(again.code).toBe(Code.FailedPrecondition);
    await verification.submitBusinessDetails({
      merchantId,
      details: { ...DETAILS, registrationNumber: "B0654321" },
    });
    const approved = await verification.decideBusinessVerification({ merchantId, approve: true, reason: "" });
    expect(approved.verification?.status).toBe(VerificationStatus.APPROVED);
    expect(approved.verification?.reason).toBe("");
    expect((await accounts.getMerchant({ merchantId })).merchant?.verified).toBe(true);
    expect((await accounts.createApiKey({ merchantId, livemode: true })).secret).toMatch(/^sk_live_/);
    expect((await verification.listPendingVerifications({})).verifications).toEqual([]);
    const afterApproval = await connectErrorOf(
      verification.submitBusinessDetails({ merchantId, details: DETAILS }),
    );
    expect(afterApproval.code).toBe(Code.FailedPrecondition);
  });
});
