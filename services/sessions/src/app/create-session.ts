import { type Clock, GatewayError } from "@gateway/platform";
import { withNewCurrentLink } from "../domain/checkout-link.js";
import { isLinkExpired, isPastLifetime } from "../domain/checkout-state.js";
import { type Lifetimes, newSession } from "../domain/new-session.js";
import { requestFingerprint } from "../domain/request-fingerprint.js";
import { currentCheckoutLink, type Session } from "../domain/session.js";
import type { CreateSessionInput } from "../domain/validation/create-session-input.js";
import { hasControlCharacter } from "../domain/validation/field-rules.js";
import { foreignCurrencyOf, validateCreateSession } from "../domain/validation/validate-create-session.js";
import { contention, MAX_ROUNDS } from "./payment-deps.js";
import type { ExchangeRateProvider, SessionRepository, TerminalProvider } from "./ports.js";

export interface CreateSessionDeps {
  repo: SessionRepository;
  rates: ExchangeRateProvider;
  /** Asked before a new session is stored: a session nobody can pay is refused at create. */
  terminals: TerminalProvider;
  clock: Clock;
  lifetimes: Lifetimes;
}

export interface CreateSessionOutcome {
  session: Session;
  /** false on an idempotent repeat of an earlier create. */
  created: boolean;
}

/** Draws of generated values (id, order number, link token) before giving up. */
const MAX_GENERATION_TRIES = 5;

/**
 * Creates a session, idempotently on (merchant, mode, merchant_reference): a repeat of the same
 * request returns the stored session; a different request under the same reference is a
 * conflict. Concurrent creates converge through the store's unique index.
 *
 * A new session is tried first and the reference is looked up only when the store refuses it or
 * something refused a new session (docs/decisions.md#a-create-looks-up-its-reference-only-when-it-must):
 * most creates are new, and the unique index answers the repeat anyway.
 */
export async function createSession(
  deps: CreateSessionDeps,
  input: CreateSessionInput,
): Promise<CreateSessionOutcome> {
  const fresh = await newSessionRequest(deps, input);
  if (fresh.ok) {
    for (let tries = 0; tries < MAX_GENERATION_TRIES; tries++) {
      const session = newSession(input.scope, fresh.request, deps.clock.now(), deps.lifetimes);
      const result = await deps.repo.insert(session);
      if (result.inserted) return { session, created: true };
      if (result.duplicate === "merchant_reference") return repeatOfStored(deps, input, result.existing);
    }
    throw new GatewayError(
      "SERVICE_UNAVAILABLE",
      "Could not allocate an order number for the session; try again.",
    );
  }
  // A repeat is answered as stored even when a new session would be refused now (the rate or
  // the terminal changed since). A reference no session can have (validation refuses it) is not
  // looked up: FerretDB on PostgreSQL fails any query holding a NUL instead of finding nothing.
  const existing =
    input.merchantReference !== "" && !hasControlCharacter(input.merchantReference)
      ? await deps.repo.findByReference(input.scope, input.merchantReference)
      : undefined;
  if (existing) return repeatOfStored(deps, input, existing);
  throw fresh.problem;
}

type NewSessionRequest =
  | { ok: true; request: Extract<ReturnType<typeof validateCreateSession>, { ok: true }>["value"] }
  | { ok: false; problem: unknown };

/** The validated request of a new session, or what refuses one: its rate, its body or its terminal. */
async function newSessionRequest(
  deps: CreateSessionDeps,
  input: CreateSessionInput,
): Promise<NewSessionRequest> {
  // Asked at once, alongside the rate, so the check adds no round trip to a create. The merchant
  // hears about a missing or inactive terminal now (422 no-terminal-configured /
  // terminal-inactive), not the buyer at Pay; Pay still checks, as the terminal may change after.
  const terminalCheck = deps.terminals.terminalFor(input.scope).then(
    () => undefined,
    (err: unknown) => ({ err }),
  );
  const foreign = foreignCurrencyOf(input);
  let rate: string | undefined;
  try {
    if (foreign !== undefined) rate = await deps.rates.rateFor(input.scope.merchantId, foreign);
  } catch (err) {
    return { ok: false, problem: err };
  }
  const validation = validateCreateSession(input, rate);
  if (!validation.ok) return { ok: false, problem: GatewayError.validation(validation.violations) };
  const terminalProblem = await terminalCheck;
  if (terminalProblem) return { ok: false, problem: terminalProblem.err };
  return { ok: true, request: validation.value };
}

/**
 * A create whose reference is stored: validated again as the stored one was, so a repeat in the
 * stored currency reuses the stored rate (a retry must not fail, or convert differently, because
 * the account's rate changed or was removed in between), then compared with it.
 */
async function repeatOfStored(
  deps: CreateSessionDeps,
  input: CreateSessionInput,
  existing: Session,
): Promise<CreateSessionOutcome> {
  const foreign = foreignCurrencyOf(input);
  const rate =
    foreign === undefined
      ? undefined
      : existing.original.currency === foreign
        ? existing.original.rate
        : await deps.rates.rateFor(input.scope.merchantId, foreign);
  const validation = validateCreateSession(input, rate);
  if (!validation.ok) throw GatewayError.validation(validation.violations);
  return repeatOf(deps, existing, requestFingerprint(validation.value));
}

/**
 * The answer to a repeated reference (docs/api/sessions.md#idempotency): the same session. When its current checkout
 * link has expired and it can still be paid, a fresh link is minted first, so the answer
 * carries a working `checkout_url`; an EXPIRED (or otherwise closed) session comes back
 * without one.
 */
async function repeatOf(
  deps: CreateSessionDeps,
  existing: Session,
  fingerprint: string,
): Promise<CreateSessionOutcome> {
  if (requestFingerprint(existing) !== fingerprint) {
    throw new GatewayError(
      "CONFLICT",
      "A session with this merchant_reference already exists with different parameters.",
      {
        metadata: { existing_session_id: existing.id },
      },
    );
  }
  let session: Session | undefined = existing;
  for (let round = 0; round < MAX_ROUNDS && session; round++) {
    const now = deps.clock.now();
    const current = currentCheckoutLink(session);
    if (!current || !isLinkExpired(current, now) || isPastLifetime(session, now))
      return { session, created: false };
    const { changes } = withNewCurrentLink(session, now, deps.lifetimes.checkoutLinkLifetimeMs);
    const result = await deps.repo.updateIf(session, changes);
    if (result.updated) return { session: result.session, created: false };
    session = result.current;
  }
  if (!session) throw GatewayError.notFound("session", existing.id);
  throw contention(existing.id);
}
