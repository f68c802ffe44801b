import { create } from "@bufbuild/protobuf";
import { timestampFromDate, timestampMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { type Clock, type FieldViolation, GatewayError, newId, randomBase62 } from "@gateway/platform";
import {
  type AccountScope,
  AttemptStatus,
  type CancelSessionRequest,
  CheckoutState,
  type CreateCheckoutRequest,
  type CreateSessionRequest,
  type GetCheckoutRequest,
  type GetSessionRequest,
  type ListSessionsRequest,
  OriginalAmountSchema,
  PageInfoSchema,
  PaymentAttemptSchema,
  type Session,
  SessionSchema,
  type SessionService,
  SessionStatus,
  type SettleAttemptRequest,
  type SettlementSource,
  type StartPaymentRequest,
} from "@gateway/proto";

const DECIMAL = /^(0|[1-9]\d*)(?:\.(\d+))?$/;
const PRECISION: Record<string, number> = { TND: 3, EUR: 2 };
/** 1 EUR = 3.3 TND, the one conversion this double knows. */
const EUR_RATE = "3.300000";
const TERMINAL = new Set([SessionStatus.SUCCEEDED, SessionStatus.FAILED, SessionStatus.EXPIRED]);
/** Sessions a buyer can no longer pay: terminal ones and CANCELED. */
const CLOSED_FOR_PAYMENT = new Set([...TERMINAL, SessionStatus.CANCELED]);
const CHECKOUT_LINK_LIFETIME_MS = 30 * 60_000;
/** Unexpired links allowed per session before CreateCheckout refuses (the real limit is configuration). */
const MAX_ACTIVE_CHECKOUTS = 3;

/** What the acquirer says about an order when asked (getOrderStatusExtended, in the gateway's words). */
export type FakeOrderOutcome =
  | { status: "PENDING" }
  | { status: "PROCESSING" }
  | { status: "SUCCEEDED"; cardBrand: string; lastFour: string }
  | { status: "FAILED"; failureCode: string };

export interface FakeOrderRegistration {
  orderNumber: string;
  /** Decimal string in `currency` (the session's TND amount). */
  amount: string;
  currency: string;
  returnUrl: string;
  failUrl: string;
  language: string;
  description: string;
}

/** The acquirer as the fake sessions service uses it; errors are GatewayErrors (PROCESSOR_UNAVAILABLE…). */
export interface FakeCheckoutAcquirer {
  registerOrder(order: FakeOrderRegistration): Promise<{ acquirerOrderId: string; formUrl: string }>;
  orderOutcome(acquirerOrderId: string): Promise<FakeOrderOutcome>;
}

/**
 * An acquirer held in memory: orders are PENDING until a test decides their outcome; `down`
 * makes every call fail as an unreachable acquirer does.
 */
export class InMemoryCheckoutAcquirer implements FakeCheckoutAcquirer {
  readonly orders = new Map<string, { registration: FakeOrderRegistration; outcome: FakeOrderOutcome }>();
  down = false;

  constructor(private readonly cardPageBase = "https://acquirer.test/epg/payment/") {}

  async registerOrder(registration: FakeOrderRegistration) {
    this.failIfDown();
    const acquirerOrderId = `acq-${randomBase62(16)}`;
    this.orders.set(acquirerOrderId, { registration, outcome: { status: "PENDING" } });
    return { acquirerOrderId, formUrl: `${this.cardPageBase}${acquirerOrderId}` };
  }

  async orderOutcome(acquirerOrderId: string): Promise<FakeOrderOutcome> {
    this.failIfDown();
    const order = this.orders.get(acquirerOrderId);
    if (!order) throw new GatewayError("NOT_FOUND", "The acquirer does not know this order.");
    return order.outcome;
  }

  /** Test control: what the buyer did on the card page. */
  decide(acquirerOrderId: string, outcome: FakeOrderOutcome): void {
    const order = this.orders.get(acquirerOrderId);
    if (!order) throw new Error(`unknown acquirer order ${acquirerOrderId}`);
    order.outcome = outcome;
  }

  private failIfDown(): void {
    if (this.down) throw new GatewayError("PROCESSOR_UNAVAILABLE", "The acquirer did not answer in time.");
  }
}

export interface FakeSessionsOptions {
  /** Base of checkout links and of the acquirer's return URL. Default http://localhost:8080. */
  publicUrl?: string;
  acquirer?: FakeCheckoutAcquirer;
}

interface CheckoutLink {
  token: string;
  sessionId: string;
  expiresAt: number;
}

interface AcquirerOrder {
  acquirerOrderId: string;
  sessionId: string;
  attemptId: string;
  token: string;
}

/**
 * In-memory test double of gateway.sessions.v1.SessionService with the contract the edge relies
 * on: idempotency on (scope, merchant_reference) with conflict on differing amounts, all
 * violations reported together (input_violations first), scope isolation (another account's
 * session is NOT_FOUND), newest-first cursor pagination, and the cancel rules.
 */
export class FakeSessionsService implements ServiceImpl<typeof SessionService> {
  readonly sessions: Session[] = [];
  /** Every CreateSessionRequest received, to check what the edge sent. */
  readonly createRequests: CreateSessionRequest[] = [];

  /** When set, every call throws it (to test how the edge answers a service's failures). */
  failWith: unknown = undefined;

  /** Checkout links by token; a session's current one is in its checkout_url. */
  readonly links = new Map<string, CheckoutLink>();
  readonly acquirerOrders = new Map<string, AcquirerOrder>();
  /** Every SettleAttempt received, to check who settled (return, callback). */
  readonly settleRequests: Array<{ acquirerOrderId: string; source: SettlementSource }> = [];
  /** Every StartPayment received. */
  readonly startRequests: Array<{ token: string; language: string }> = [];
  /** GetCheckout's merchant_name per merchant id ("Test Shop" when absent). */
  readonly merchantNames = new Map<string, string>();
  /** A merchant's terminal problem, as the accounts service would report it at StartPayment. */
  readonly terminalProblems = new Map<
    string,
    "NO_TERMINAL_CONFIGURED" | "TERMINAL_INACTIVE" | "TERMINAL_REJECTED"
  >();
  publicUrl: string;
  readonly acquirer: FakeCheckoutAcquirer;

  constructor(
    private readonly clock: Clock,
    options: FakeSessionsOptions = {},
  ) {
    this.publicUrl = options.publicUrl ?? "http://localhost:8080";
    this.acquirer = options.acquirer ?? new InMemoryCheckoutAcquirer();
  }

  private checkFailure(): void {
    if (this.failWith !== undefined) throw this.failWith;
  }

  createSession = async (req: CreateSessionRequest) => {
    this.checkFailure();
    this.createRequests.push(req);
    const scope = requireScope(req.scope);
    const violations: FieldViolation[] = req.inputViolations.map(({ field, code, message }) => ({
      field,
      code,
      message,
    }));
    const currency = req.currency ?? "TND";
    if (req.merchantReference === "")
      violations.push({ field: "merchant_reference", code: "required", message: "Required." });
    else if (req.merchantReference.length > 200)
      violations.push({ field: "merchant_reference", code: "invalid", message: "At most 200 characters." });
    const precision = PRECISION[currency];
    if (precision === undefined)
      violations.push({ field: "currency", code: "currency_unsupported", message: "No exchange rate." });
    const amount = DECIMAL.exec(req.amount);
    if (req.amount === "") violations.push({ field: "amount", code: "required", message: "Required." });
    else if (!amount) violations.push({ field: "amount", code: "invalid_format", message: "Not a decimal." });
    else if (precision !== undefined && (amount[2] ?? "").length !== precision) {
      violations.push({ field: "amount", code: "invalid_precision", message: `Use ${precision} decimals.` });
    }
    req.items.forEach((item, i) => {
      if (item.name === "")
        violations.push({ field: `items[${i}].name`, code: "required", message: "Required." });
      if (item.quantity < 1)
        violations.push({ field: `items[${i}].quantity`, code: "invalid", message: "At least 1." });
      if (!DECIMAL.test(item.unitPrice))
        violations.push({ field: `items[${i}].unit_price`, code: "invalid", message: "Not a decimal." });
    });
    if (req.maxAttempts !== undefined && (req.maxAttempts < 1 || req.maxAttempts > 10)) {
      violations.push({ field: "max_attempts", code: "invalid", message: "From 1 to 10." });
    }
    if (violations.length > 0) throw GatewayError.validation(violations);

    const existing = this.sessions.find(
      (s) => sameScope(s.scope, scope) && s.merchantReference === req.merchantReference,
    );
    if (existing) {
      if (existing.original?.amount !== req.amount || existing.original?.currency !== currency) {
        throw new GatewayError(
          "CONFLICT",
          "This merchant_reference belongs to a session with other payment fields.",
          {
            metadata: { existing_session_id: existing.id },
          },
        );
      }
      return { session: existing, created: false };
    }
    const now = this.clock.now();
    const rate = currency === "TND" ? "1.000000" : EUR_RATE;
    const session = create(SessionSchema, {
      id: newId("ps"),
      scope,
      merchantReference: req.merchantReference,
      orderNumber: `ORD-${randomBase62(6).toUpperCase()}`,
      orderId: req.orderId ?? "",
      amount: toTnd(req.amount, currency),
      currency: "TND",
      original: create(OriginalAmountSchema, { amount: req.amount, currency, rate }),
      description: req.description ?? "",
      items: req.items,
      status: SessionStatus.CREATED,
      buyerFirstName: req.buyerFirstName ?? "",
      buyerLastName: req.buyerLastName ?? "",
      buyerEmail: req.buyerEmail ?? "",
      buyerPhone: req.buyerPhone ?? "",
      metadataJson: req.metadataJson ?? "",
      returnUrl: req.returnUrl ?? "",
      cancelUrl: req.cancelUrl ?? "",
      webhookUrl: req.webhookUrl ?? "",
      maxAttempts: req.maxAttempts ?? 3,
      expiresAt: timestampFromDate(new Date(now.getTime() + 24 * 3600_000)),
      createdAt: timestampFromDate(now),
    });
    this.mintLink(session);
    this.sessions.push(session);
    return { session, created: true };
  };

  getSession = async (req: GetSessionRequest) => {
    this.checkFailure();
    return { session: this.find(requireScope(req.scope), req.sessionId) };
  };

  listSessions = async (req: ListSessionsRequest) => {
    this.checkFailure();
    const scope = requireScope(req.scope);
    const limit = req.page?.limit || 20;
    let rows = this.sessions
      .filter((s) => sameScope(s.scope, scope))
      .filter((s) => req.status === SessionStatus.UNSPECIFIED || s.status === req.status)
      .filter((s) => req.merchantReference === "" || s.merchantReference === req.merchantReference)
      .filter((s) => !req.createdGte || timestampMs(s.createdAt!) >= timestampMs(req.createdGte))
      .filter((s) => !req.createdLte || timestampMs(s.createdAt!) <= timestampMs(req.createdLte))
      .sort((a, b) => timestampMs(b.createdAt!) - timestampMs(a.createdAt!) || (a.id < b.id ? 1 : -1));
    const after = req.page?.startingAfter ?? "";
    if (after !== "") {
      const at = rows.findIndex((s) => s.id === after);
      if (at === -1)
        throw GatewayError.validation([
          { field: "starting_after", code: "invalid", message: "Unknown cursor." },
        ]);
      rows = rows.slice(at + 1);
    }
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return {
      sessions: page,
      pageInfo: create(PageInfoSchema, { hasMore, nextCursor: hasMore ? page[page.length - 1]!.id : "" }),
    };
  };

  cancelSession = async (req: CancelSessionRequest) => {
    this.checkFailure();
    const session = this.find(requireScope(req.scope), req.sessionId);
    if (TERMINAL.has(session.status)) {
      throw new GatewayError(
        "SESSION_TERMINAL",
        `The session is ${SessionStatus[session.status]} and cannot be canceled.`,
        {
          metadata: { session_id: session.id },
        },
      );
    }
    if (session.status !== SessionStatus.CANCELED) {
      session.status = SessionStatus.CANCELED;
      session.checkoutUrl = "";
      session.checkoutExpiresAt = undefined;
      session.completedAt = timestampFromDate(this.clock.now());
    }
    return { session };
  };

  createCheckout = async (req: CreateCheckoutRequest) => {
    this.checkFailure();
    const session = this.find(requireScope(req.scope), req.sessionId);
    if (CLOSED_FOR_PAYMENT.has(session.status)) {
      throw new GatewayError(
        "SESSION_TERMINAL",
        `The session is ${SessionStatus[session.status]} and cannot be paid.`,
        {
          metadata: { session_id: session.id },
        },
      );
    }
    const now = this.clock.now().getTime();
    const active = [...this.links.values()].filter(
      (link) => link.sessionId === session.id && link.expiresAt > now,
    );
    if (active.length >= MAX_ACTIVE_CHECKOUTS) {
      throw new GatewayError(
        "CHECKOUT_LIMIT_EXCEEDED",
        `The session already has ${active.length} active checkout links.`,
        {
          metadata: { session_id: session.id },
        },
      );
    }
    const link = this.mintLink(session);
    return { checkoutUrl: session.checkoutUrl, expiresAt: timestampFromDate(new Date(link.expiresAt)) };
  };

  getCheckout = async (req: GetCheckoutRequest) => {
    this.checkFailure();
    const link = this.links.get(req.token);
    const session = link && this.sessions.find((s) => s.id === link.sessionId);
    if (!link || !session) return {};
    const failed = session.attempts.filter((a) => a.status === AttemptStatus.FAILED).length;
    const last = session.attempts[session.attempts.length - 1];
    const state = this.checkoutState(session, link);
    return {
      session,
      merchantName: this.merchantNames.get(session.scope?.merchantId ?? "") ?? "Test Shop",
      state,
      lastFailureCode:
        state === CheckoutState.PAYABLE && last?.status === AttemptStatus.FAILED ? last.failureCode : "",
      attemptsLeft: Math.max(0, session.maxAttempts - failed),
    };
  };

  startPayment = async (req: StartPaymentRequest) => {
    this.checkFailure();
    this.startRequests.push({ token: req.token, language: req.language });
    const link = this.links.get(req.token);
    const session = link && this.sessions.find((s) => s.id === link.sessionId);
    if (!link || !session) throw GatewayError.notFound("checkout", req.token);
    const state = this.checkoutState(session, link);
    if (state === CheckoutState.LINK_EXPIRED)
      throw new GatewayError("INVALID_STATE", "This checkout link has expired.");
    if (state === CheckoutState.PROCESSING)
      throw new GatewayError("INVALID_STATE", "A payment is being processed for this session.");
    if (state !== CheckoutState.PAYABLE) {
      throw new GatewayError(
        "SESSION_TERMINAL",
        `The session is ${SessionStatus[session.status]} and cannot be paid.`,
        {
          metadata: { session_id: session.id },
        },
      );
    }
    const problem = this.terminalProblems.get(session.scope?.merchantId ?? "");
    if (problem) throw new GatewayError(problem, "The account's acquirer terminal cannot take payments.");
    // A new Pay abandons the attempt the buyer left on the card page.
    for (const attempt of session.attempts)
      if (attempt.status === AttemptStatus.INITIATED) attempt.status = AttemptStatus.ABANDONED;
    const attempt = create(PaymentAttemptSchema, {
      id: newId("pa"),
      attemptNumber: session.attempts.length + 1,
      status: AttemptStatus.INITIATED,
      createdAt: timestampFromDate(this.clock.now()),
    });
    const registered = await this.acquirer.registerOrder({
      orderNumber: `${session.orderNumber}-${attempt.attemptNumber}`,
      amount: session.amount,
      currency: session.currency,
      returnUrl: `${this.publicUrl}/checkout/return`,
      failUrl: `${this.publicUrl}/checkout/return`,
      language: req.language,
      description: session.description,
    });
    session.attempts.push(attempt);
    session.status = SessionStatus.PENDING;
    this.acquirerOrders.set(registered.acquirerOrderId, {
      acquirerOrderId: registered.acquirerOrderId,
      sessionId: session.id,
      attemptId: attempt.id,
      token: link.token,
    });
    return { redirectUrl: registered.formUrl, attemptId: attempt.id };
  };

  settleAttempt = async (req: SettleAttemptRequest) => {
    this.checkFailure();
    this.settleRequests.push({ acquirerOrderId: req.acquirerOrderId, source: req.source });
    const order = this.acquirerOrders.get(req.acquirerOrderId);
    const session = order && this.sessions.find((s) => s.id === order.sessionId);
    const attempt = session?.attempts.find((a) => a.id === order?.attemptId);
    if (!order || !session || !attempt) throw GatewayError.notFound("acquirer order", req.acquirerOrderId);
    const checkoutPage = `${this.publicUrl}/checkout/${order.token}`;
    const answer = (redirectUrl: string) => ({ session, attempt, redirectUrl });
    // Settled once: whoever comes later (return, callback, reconciler) gets the same outcome.
    if (attempt.status === AttemptStatus.SUCCEEDED) return answer(session.returnUrl || checkoutPage);
    if (attempt.status === AttemptStatus.FAILED) {
      return answer(
        session.status === SessionStatus.FAILED ? session.cancelUrl || checkoutPage : checkoutPage,
      );
    }
    const outcome = await this.acquirer.orderOutcome(order.acquirerOrderId);
    const now = timestampFromDate(this.clock.now());
    switch (outcome.status) {
      case "PENDING":
        return answer(checkoutPage);
      case "PROCESSING":
        attempt.status = AttemptStatus.PROCESSING;
        session.status = SessionStatus.PROCESSING;
        return answer(checkoutPage);
      case "SUCCEEDED":
        attempt.status = AttemptStatus.SUCCEEDED;
        attempt.cardBrand = outcome.cardBrand;
        attempt.cardLastFour = outcome.lastFour;
        this.close(session, SessionStatus.SUCCEEDED, now);
        return answer(session.returnUrl || checkoutPage);
      case "FAILED": {
        attempt.status = AttemptStatus.FAILED;
        attempt.failureCode = outcome.failureCode;
        const failed = session.attempts.filter((a) => a.status === AttemptStatus.FAILED).length;
        if (failed >= session.maxAttempts) {
          this.close(session, SessionStatus.FAILED, now);
          return answer(session.cancelUrl || checkoutPage);
        }
        session.status = SessionStatus.PENDING;
        return answer(checkoutPage);
      }
    }
  };

  /** Test helper: the token of the session's current checkout link. */
  tokenOf(sessionId: string): string {
    const session = this.sessions.find((s) => s.id === sessionId);
    const token = session?.checkoutUrl.split("/checkout/")[1];
    if (!token) throw new Error(`session ${sessionId} has no checkout link`);
    return token;
  }

  /** Test helper: the session lifetime ran out (the real service's expiry sweep). */
  expireSession(sessionId: string): void {
    const session = this.sessions.find((s) => s.id === sessionId);
    if (!session) throw new Error(`unknown session ${sessionId}`);
    this.close(session, SessionStatus.EXPIRED, timestampFromDate(this.clock.now()));
  }

  private checkoutState(session: Session, link: CheckoutLink): CheckoutState {
    switch (session.status) {
      case SessionStatus.SUCCEEDED:
        return CheckoutState.SUCCEEDED;
      case SessionStatus.FAILED:
        return CheckoutState.FAILED;
      case SessionStatus.EXPIRED:
      case SessionStatus.CANCELED:
        return CheckoutState.CLOSED;
      default:
        break;
    }
    if (link.expiresAt <= this.clock.now().getTime()) return CheckoutState.LINK_EXPIRED;
    return session.status === SessionStatus.PROCESSING ? CheckoutState.PROCESSING : CheckoutState.PAYABLE;
  }

  private mintLink(session: Session): CheckoutLink {
    const link = {
      token: randomBase62(24),
      sessionId: session.id,
      expiresAt: this.clock.now().getTime() + CHECKOUT_LINK_LIFETIME_MS,
    };
    this.links.set(link.token, link);
    session.checkoutUrl = `${this.publicUrl}/checkout/${link.token}`;
    session.checkoutExpiresAt = timestampFromDate(new Date(link.expiresAt));
    return link;
  }

  private close(session: Session, status: SessionStatus, at: Session["completedAt"]): void {
    session.status = status;
    session.checkoutUrl = "";
    session.checkoutExpiresAt = undefined;
    session.completedAt = at;
  }

  private find(scope: AccountScope, id: string): Session {
    const session = this.sessions.find((s) => s.id === id && sameScope(s.scope, scope));
    if (!session) throw GatewayError.notFound("session", id);
    return session;
  }
}

function requireScope(scope: AccountScope | undefined): AccountScope {
  if (!scope || scope.merchantId === "") throw new GatewayError("UNAUTHORIZED", "No account scope.");
  return scope;
}

function sameScope(a: AccountScope | undefined, b: AccountScope): boolean {
  return a?.merchantId === b.merchantId && a.livemode === b.livemode;
}

/** Exact decimal conversion for the double's one rate, without floats: minor units as bigint. */
function toTnd(amount: string, currency: string): string {
  const [whole, fraction = ""] = amount.split(".");
  if (currency === "TND") return `${whole}.${fraction.padEnd(3, "0")}`;
  // EUR cents * 3300000 (rate * 10^6) / 10^5 -> millimes, rounded half up.
  const cents = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, "0") || "0");
  const scaled = cents * 3_300_000n;
  const millimes = (scaled + 50_000n) / 100_000n;
  return `${millimes / 1000n}.${(millimes % 1000n).toString().padStart(3, "0")}`;
}
