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
 */
export async function createSession(
  deps: CreateSessionDeps,
  input: CreateSessionInput,
): Promise<CreateSessionOutcome> {
  const { repo, rates, clock } = deps;
  // Asked at once, alongside the reads below, so the check adds no round trip to a create; its
  // answer only counts for a new session.
  const terminalCheck = deps.terminals.terminalFor(input.scope).then(
    () => undefined,
    (err: unknown) => ({ err }),
  );
  // A reference no session can have (validation refuses it below) is not looked up: FerretDB on
  // PostgreSQL fails any query holding a NUL character instead of finding nothing.
  const existing =
    input.merchantReference !== "" && !hasControlCharacter(input.merchantReference)
      ? await repo.findByReference(input.scope, input.merchantReference)
      : undefined;

  // A repeat in the stored currency reuses the stored rate: a retry must not fail, or convert
  // differently, because the account's rate changed or was removed in between.
  const foreign = foreignCurrencyOf(input);
  let rate: string | undefined;
  if (foreign !== undefined) {
    rate =
      existing?.original.currency === foreign
        ? existing.original.rate
        : await rates.rateFor(input.scope.merchantId, foreign);
  }

  const validation = validateCreateSession(input, rate);
  if (!validation.ok) throw GatewayError.validation(validation.violations);
  const request = validation.value;
  const fingerprint = requestFingerprint(request);
  if (existing) return repeatOf(deps, existing, fingerprint);
  // The merchant hears about a missing or inactive terminal now (422 no-terminal-configured /
  // terminal-inactive), not the buyer at Pay; Pay still checks, as the terminal may change after.
  // Only a new session is checked: a repeat returns what the first create stored.
  const terminalProblem = await terminalCheck;
  if (terminalProblem) throw terminalProblem.err;

  for (let tries = 0; tries < MAX_GENERATION_TRIES; tries++) {
    const session = newSession(input.scope, request, clock.now(), deps.lifetimes);
    const result = await repo.insert(session);
    if (result.inserted) return { session, created: true };
    if (result.duplicate === "merchant_reference") return repeatOf(deps, result.existing, fingerprint);
  }
  throw new GatewayError(
    "SERVICE_UNAVAILABLE",
    "Could not allocate an order number for the session; try again.",
  );
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
  if (existing.requestFingerprint !== fingerprint) {
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
    const result = await deps.repo.updateIf(session.scope, session.id, session.version, changes);
    if (result.updated) return { session: result.session, created: false };
    session = result.current;
  }
  if (!session) throw GatewayError.notFound("session", existing.id);
  throw contention(existing.id);
}
