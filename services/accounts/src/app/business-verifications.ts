import { GatewayError } from "@gateway/platform";
import { type BusinessVerification, readBusinessDetails } from "../domain/business-verification.js";
import type { AccountsDeps } from "./accounts-deps.js";
import { getMerchant, requireId } from "./merchants.js";

/** The operator's queue shows at most this many at once, oldest first. */
export const MAX_PENDING_LISTED = 200;
const MAX_REASON_LENGTH = 500;

/**
 * A merchant submits (or corrects) its business details: the verification becomes PENDING for
 * the operator. An approved merchant stays approved: there is nothing left to decide.
 */
export async function submitBusinessDetails(
  deps: AccountsDeps,
  input: {
    merchantId: string;
    legalName: string;
    registrationNumber: string;
    country: string;
    address: string;
    website: string;
  },
): Promise<BusinessVerification> {
  const merchant = await getMerchant(deps, input.merchantId);
  const read = readBusinessDetails(input);
  if (!read.ok) throw GatewayError.validation(read.violations);
  const current = await deps.repos.businessVerifications.find(merchant.id);
  if (current?.status === "approved" || merchant.verified)
    throw new GatewayError("INVALID_STATE", "The business is already verified.");
  const verification: BusinessVerification = {
    merchantId: merchant.id,
    status: "pending",
    details: read.details,
    submittedAt: deps.clock.now(),
  };
  await deps.repos.businessVerifications.save(verification);
  return verification;
}

/** The merchant's verification; undefined when nothing was submitted yet. */
export async function getBusinessVerification(
  deps: AccountsDeps,
  merchantId: string,
): Promise<BusinessVerification | undefined> {
  const merchant = await getMerchant(deps, merchantId);
  return deps.repos.businessVerifications.find(merchant.id);
}

export function listPendingVerifications(deps: AccountsDeps): Promise<BusinessVerification[]> {
  return deps.repos.businessVerifications.listPending(MAX_PENDING_LISTED);
}

/**
 * The operator approves or rejects the PENDING verification. Approval verifies the merchant (the
 * flag live keys and live terminals need). Nothing pending → INVALID_STATE.
 */
export async function decideBusinessVerification(
  deps: AccountsDeps,
  input: { merchantId: string; approve: boolean; reason?: string },
): Promise<BusinessVerification> {
  const merchantId = requireId("merchant_id", input.merchantId);
  const reason = input.reason?.trim() ?? "";
  if (!input.approve && reason === "")
    throw GatewayError.validation([
      { field: "reason", code: "required", message: "A rejection needs a reason." },
    ]);
  if ([...reason].length > MAX_REASON_LENGTH)
    throw GatewayError.validation([
      {
        field: "reason",
        code: "invalid",
        message: `reason must have at most ${MAX_REASON_LENGTH} characters.`,
      },
    ]);
  const current = await deps.repos.businessVerifications.find(merchantId);
  if (!current) throw GatewayError.notFound("business verification", merchantId);
  if (current.status !== "pending")
    throw new GatewayError("INVALID_STATE", `The verification is already ${current.status}.`);
  const decided = await deps.repos.businessVerifications.decide(merchantId, current.submittedAt, {
    status: input.approve ? "approved" : "rejected",
    decidedAt: deps.clock.now(),
    ...(input.approve ? {} : { reason }),
  });
  if (!decided) throw new GatewayError("CONFLICT", "The details changed meanwhile; read them again.");
  if (input.approve) await deps.repos.merchants.markVerified(merchantId);
  return decided;
}
