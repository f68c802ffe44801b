import type { FieldViolation } from "@gateway/platform";

export type VerificationStatus = "pending" | "approved" | "rejected";

/** What a merchant tells about its business so the operator can open live mode to it. */
export interface BusinessDetails {
  legalName: string;
  registrationNumber: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  address: string;
  website?: string;
}

/** One merchant's business verification: the latest details and the operator's decision. */
export interface BusinessVerification {
  merchantId: string;
  status: VerificationStatus;
  details: BusinessDetails;
  submittedAt: Date;
  decidedAt?: Date;
  /** Why it was rejected (shown to the merchant). */
  reason?: string;
}

const COUNTRY = /^[A-Z]{2}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

function text(
  field: string,
  value: string,
  max: number,
  violations: FieldViolation[],
  o: { required: boolean; multiline?: boolean },
): string | undefined {
  const trimmed = value.trim();
  if (trimmed === "") {
    if (o.required) violations.push({ field, code: "required", message: `${field} is required.` });
    return undefined;
  }
  if ([...trimmed].length > max)
    violations.push({ field, code: "invalid", message: `${field} must have at most ${max} characters.` });
  else if (CONTROL.test(o.multiline ? trimmed.replace(/\r?\n/g, " ") : trimmed))
    violations.push({ field, code: "invalid", message: `${field} must not contain control characters.` });
  return trimmed;
}

/** Checks submitted details; every fault is reported, each once. */
export function readBusinessDetails(input: {
  legalName: string;
  registrationNumber: string;
  country: string;
  address: string;
  website: string;
}): { ok: true; details: BusinessDetails } | { ok: false; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const legalName = text("legal_name", input.legalName, 200, violations, { required: true });
  const registrationNumber = text("registration_number", input.registrationNumber, 64, violations, {
    required: true,
  });
  const country = input.country.trim().toUpperCase();
  if (country === "")
    violations.push({ field: "country", code: "required", message: "country is required." });
  else if (!COUNTRY.test(country))
    violations.push({
      field: "country",
      code: "invalid",
      message: "country must be an ISO 3166-1 alpha-2 code.",
    });
  const address = text("address", input.address, 500, violations, { required: true, multiline: true });
  const website = text("website", input.website, 300, violations, { required: false });
  if (website !== undefined && !/^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(website))
    violations.push({ field: "website", code: "invalid", message: "website must be an http(s) URL." });
  if (violations.length > 0) return { ok: false, violations };
  return {
    ok: true,
    details: {
      legalName: legalName!,
      registrationNumber: registrationNumber!,
      country,
      address: address!,
      ...(website !== undefined ? { website } : {}),
    },
  };
}
