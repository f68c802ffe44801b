import type { Clock } from "@gateway/platform";
import { attemptsLeft } from "../domain/attempts.js";
import { type CheckoutState, checkoutStateOf, linkOf } from "../domain/checkout-state.js";
import type { Session } from "../domain/session.js";
import type { MerchantDirectory, SessionRepository } from "./ports.js";

export interface GetCheckoutDeps {
  repo: SessionRepository;
  merchants: MerchantDirectory;
  clock: Clock;
}

export interface CheckoutView {
  session: Session;
  /** Empty when the merchant is unknown. */
  merchantName: string;
  state: CheckoutState;
  /** The last attempt's failure code when it was declined and the page should say why. */
  lastFailureCode?: string;
  attemptsLeft: number;
}

/**
 * What the hosted page of link `token` shows; undefined for an unknown token. Read only: a
 * payment in progress is re-checked with the acquirer when the buyer presses Pay again.
 */
export async function getCheckout(deps: GetCheckoutDeps, token: string): Promise<CheckoutView | undefined> {
  const session = token === "" ? undefined : await deps.repo.findByCheckoutToken(token);
  const link = session ? linkOf(session, token) : undefined;
  if (!session || !link) return undefined;
  const state = checkoutStateOf(session, link, deps.clock.now());
  const last = session.attempts.at(-1);
  const showFailure =
    (state === "PAYABLE" || state === "FAILED") &&
    last?.status === "FAILED" &&
    last.failureCode !== undefined;
  return {
    session,
    merchantName: (await deps.merchants.merchantName(session.scope.merchantId)) ?? "",
    state,
    ...(showFailure ? { lastFailureCode: last.failureCode } : {}),
    attemptsLeft: attemptsLeft(session),
  };
}
