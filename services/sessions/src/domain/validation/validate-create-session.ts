import { D, type Dec, formatRate, isCurrencyCode, SETTLEMENT_CURRENCY } from "@gateway/money";
import { type FieldViolation, MAX_LINE_ITEMS } from "@gateway/platform";
import type { LineItem } from "../session.js";
import { checkAmountText, checkSettlement } from "./amount-rules.js";
import type { CreateSessionInput, ValidCreateSession } from "./create-session-input.js";
import { checkEmail, checkIntegerRange, checkPhone, checkText, checkUrl, violation } from "./field-rules.js";
import { checkMetadata } from "./metadata-rules.js";

export const MAX_ITEMS = MAX_LINE_ITEMS;
export const MAX_ITEM_QUANTITY = 10_000;
export const DEFAULT_MAX_ATTEMPTS = 3;
/** More tries than this on one session looks like card testing, not a buyer. */
export const MAX_ATTEMPTS_LIMIT = 10;

export type CreateValidation =
  | { ok: true; value: ValidCreateSession }
  | { ok: false; violations: FieldViolation[] };

/** TND's own rate, and its text: a TND session converts nothing. */
const SETTLEMENT_RATE = new D(1);
const SETTLEMENT_RATE_TEXT = formatRate(SETTLEMENT_RATE);

type CurrencyCheck =
  | { code: string; violation?: undefined }
  | { code?: undefined; violation?: FieldViolation };

function checkCurrency(input: CreateSessionInput): CurrencyCheck {
  const text = input.currency;
  if (text === undefined) return { code: SETTLEMENT_CURRENCY };
  if (!/^[A-Z]{3}$/.test(text) || !isCurrencyCode(text)) {
    return {
      violation: violation(
        "currency",
        "invalid",
        "currency must be an ISO 4217 code in capitals, such as TND or EUR.",
      ),
    };
  }
  return { code: text };
}

/**
 * The currency whose exchange rate the request needs, if any: a valid ISO code other than TND.
 * The caller looks the rate up and passes it to `validateCreateSession`.
 */
export function foreignCurrencyOf(input: CreateSessionInput): string | undefined {
  const { code } = checkCurrency(input);
  return code !== undefined && code !== SETTLEMENT_CURRENCY ? code : undefined;
}

function unsupported(code: string): FieldViolation {
  return violation(
    "currency",
    "currency_unsupported",
    `No exchange rate is configured for ${code}; configure one in the dashboard currency settings or request in TND.`,
  );
}

/**
 * The violations found so far. A class rather than a closure made per call: the runtime that
 * runs TypeScript here names every such closure as it is made
 * (docs/decisions.md#hot-paths-make-no-named-closures-per-call).
 */
class Violations {
  readonly list: FieldViolation[] = [];
  add(v: FieldViolation | undefined): void {
    if (v) this.list.push(v);
  }
}

/**
 * Every check of a create request at once (docs/api/sessions.md#create-a-session). `rate` is the account's rate for
 * a foreign currency (six-decimal text; undefined when none is configured) and is ignored for
 * TND. Nothing is created when there is any violation. The request's JSON shape was checked
 * by the edge's route schema; these are the rules of meaning.
 */
export function validateCreateSession(input: CreateSessionInput, rate: string | undefined): CreateValidation {
  const found = new Violations();

  found.add(checkText("merchant_reference", input.merchantReference, { max: 200, required: true }));

  const currency: CurrencyCheck = checkCurrency(input);
  let rateValue: Dec | undefined;
  if (currency.code === SETTLEMENT_CURRENCY) rateValue = SETTLEMENT_RATE;
  else if (currency.code !== undefined && rate !== undefined) rateValue = new D(rate);

  const amount = checkAmountText("amount", input.amount, currency.code);
  if (!amount.ok) found.add(amount.violation);
  found.add(currency.violation);
  if (currency.code !== undefined && rateValue === undefined) found.add(unsupported(currency.code));
  let settlementMinor: bigint | undefined;
  if (amount.ok && currency.code !== undefined && rateValue !== undefined) {
    const settled = checkSettlement("amount", amount.minor, currency.code, rateValue);
    if (settled.ok) settlementMinor = settled.minor;
    else found.add(settled.violation);
  }

  found.add(checkText("order_id", input.orderId, { max: 100 }));
  found.add(checkText("description", input.description, { max: 500, multiline: true }));

  const items: LineItem[] = [];
  if (input.items.length > MAX_ITEMS) {
    found.add(violation("items", "invalid", `items must hold at most ${MAX_ITEMS} line items.`));
  } else {
    input.items.forEach((item, i) => {
      const at = `items[${i}]`;
      found.add(checkText(`${at}.name`, item.name, { max: 200, required: true }));
      found.add(checkIntegerRange(`${at}.quantity`, item.quantity, 1, MAX_ITEM_QUANTITY));
      const price = checkAmountText(`${at}.unit_price`, item.unitPrice, currency.code);
      if (!price.ok) found.add(price.violation);
      else if (currency.code !== undefined) {
        // A unit price may not round to zero in TND (a cheap foreign item), but it may not
        // exceed what a whole session may carry either.
        if (rateValue !== undefined) {
          const settled = checkSettlement(`${at}.unit_price`, price.minor, currency.code, rateValue);
          if (!settled.ok && settled.violation.code === "amount_too_large") found.add(settled.violation);
        }
        items.push({
          name: item.name,
          quantity: item.quantity,
          unitPriceMinor: price.minor,
          ...(item.description !== undefined ? { description: item.description } : {}),
        });
      }
      found.add(checkText(`${at}.description`, item.description, { max: 500, multiline: true }));
    });
  }

  found.add(checkText("buyer_first_name", input.buyerFirstName, { max: 100 }));
  found.add(checkText("buyer_last_name", input.buyerLastName, { max: 100 }));
  found.add(checkEmail("buyer_email", input.buyerEmail));
  found.add(checkPhone("buyer_phone", input.buyerPhone));
  found.add(checkMetadata("metadata", input.metadataJson));
  // Live mode: the buyer's way back and the payment outcome never travel in clear text (see
  // docs/decisions.md, "Validation and the OpenAPI contract"); test mode allows http for local
  // shops. A fragment means nothing to a webhook receiver; a browser page may use one.
  const httpsOnly = input.scope.livemode;
  found.add(checkUrl("return_url", input.returnUrl, { httpsOnly }));
  found.add(checkUrl("cancel_url", input.cancelUrl, { httpsOnly }));
  found.add(checkUrl("webhook_url", input.webhookUrl, { httpsOnly, forbidFragment: true }));
  found.add(checkIntegerRange("max_attempts", input.maxAttempts, 1, MAX_ATTEMPTS_LIMIT));

  if (found.list.length > 0) return { ok: false, violations: found.list };
  if (!amount.ok || currency.code === undefined || rateValue === undefined || settlementMinor === undefined) {
    throw new Error("validation passed without a settled amount"); // unreachable: each case adds a violation
  }
  return {
    ok: true,
    value: {
      merchantReference: input.merchantReference,
      amountMinor: settlementMinor,
      original: {
        amountMinor: amount.minor,
        currency: currency.code,
        rate: rateValue === SETTLEMENT_RATE ? SETTLEMENT_RATE_TEXT : formatRate(rateValue),
      },
      ...(input.orderId !== undefined ? { orderId: input.orderId } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      items,
      buyer: {
        ...(input.buyerFirstName !== undefined ? { firstName: input.buyerFirstName } : {}),
        ...(input.buyerLastName !== undefined ? { lastName: input.buyerLastName } : {}),
        ...(input.buyerEmail !== undefined ? { email: input.buyerEmail } : {}),
        ...(input.buyerPhone !== undefined ? { phone: input.buyerPhone } : {}),
      },
      ...(input.metadataJson !== undefined ? { metadataJson: input.metadataJson } : {}),
      ...(input.returnUrl !== undefined ? { returnUrl: input.returnUrl } : {}),
      ...(input.cancelUrl !== undefined ? { cancelUrl: input.cancelUrl } : {}),
      ...(input.webhookUrl !== undefined ? { webhookUrl: input.webhookUrl } : {}),
      maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    },
  };
}
