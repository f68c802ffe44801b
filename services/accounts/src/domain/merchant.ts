import { GatewayError } from "@gateway/platform";

export interface Merchant {
  id: string;
  name: string;
  /** Business verification done; only verified merchants may hold live keys. */
  verified: boolean;
  createdAt: Date;
}

export const MERCHANT_NAME_MAX_LENGTH = 200;

/** Trims the name and checks 1–200 characters (counted as code points, so emoji count once). */
export function parseMerchantName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) {
    throw GatewayError.validation([{ field: "name", code: "required", message: "name is required." }]);
  }
  if ([...name].length > MERCHANT_NAME_MAX_LENGTH) {
    throw GatewayError.validation([
      {
        field: "name",
        code: "invalid",
        message: `name must be at most ${MERCHANT_NAME_MAX_LENGTH} characters.`,
      },
    ]);
  }
  return name;
}

export function newMerchant(input: { id: string; name: string; createdAt: Date }): Merchant {
  return { id: input.id, name: parseMerchantName(input.name), verified: false, createdAt: input.createdAt };
}
