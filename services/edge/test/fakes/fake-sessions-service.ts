import { create } from "@bufbuild/protobuf";
import { timestampFromDate, timestampMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { GatewayError, newId, randomBase62, type Clock, type FieldViolation } from "@gateway/platform";
import {
  OriginalAmountSchema,
  PageInfoSchema,
  SessionSchema,
  SessionStatus,
  type AccountScope,
  type CancelSessionRequest,
  type CreateSessionRequest,
  type GetSessionRequest,
  type ListSessionsRequest,
  type Session,
  type SessionService,
} from "@gateway/proto";

const DECIMAL = /^(0|[1-9]\d*)(?:\.(\d+))?$/;
const PRECISION: Record<string, number> = { TND: 3, EUR: 2 };
/** 1 EUR = 3.3 TND, the one conversion this double knows. */
const EUR_RATE = "3.300000";
const TERMINAL = new Set([SessionStatus.SUCCEEDED, SessionStatus.FAILED, SessionStatus.EXPIRED]);

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

  constructor(private readonly clock: Clock) {}

  private checkFailure(): void {
    if (this.failWith !== undefined) throw this.failWith;
  }

  createSession = async (req: CreateSessionRequest) => {
    this.checkFailure();
    this.createRequests.push(req);
    const scope = requireScope(req.scope);
    const violations: FieldViolation[] = req.inputViolations.map(({ field, code, message }) => ({ field, code, message }));
    const currency = req.currency ?? "TND";
    if (req.merchantReference === "") violations.push({ field: "merchant_reference", code: "required", message: "Required." });
    else if (req.merchantReference.length > 200) violations.push({ field: "merchant_reference", code: "invalid", message: "At most 200 characters." });
    const precision = PRECISION[currency];
    if (precision === undefined) violations.push({ field: "currency", code: "currency_unsupported", message: "No exchange rate." });
    const amount = DECIMAL.exec(req.amount);
    if (req.amount === "") violations.push({ field: "amount", code: "required", message: "Required." });
    else if (!amount) violations.push({ field: "amount", code: "invalid_format", message: "Not a decimal." });
    else if (precision !== undefined && (amount[2] ?? "").length !== precision) {
      violations.push({ field: "amount", code: "invalid_precision", message: `Use ${precision} decimals.` });
    }
    req.items.forEach((item, i) => {
      if (item.name === "") violations.push({ field: `items[${i}].name`, code: "required", message: "Required." });
      if (item.quantity < 1) violations.push({ field: `items[${i}].quantity`, code: "invalid", message: "At least 1." });
      if (!DECIMAL.test(item.unitPrice)) violations.push({ field: `items[${i}].unit_price`, code: "invalid", message: "Not a decimal." });
    });
    if (req.maxAttempts !== undefined && (req.maxAttempts < 1 || req.maxAttempts > 10)) {
      violations.push({ field: "max_attempts", code: "invalid", message: "From 1 to 10." });
    }
    if (violations.length > 0) throw GatewayError.validation(violations);

    const existing = this.sessions.find((s) => sameScope(s.scope, scope) && s.merchantReference === req.merchantReference);
    if (existing) {
      if (existing.original?.amount !== req.amount || existing.original?.currency !== currency) {
        throw new GatewayError("CONFLICT", "This merchant_reference belongs to a session with other payment fields.", {
          metadata: { existing_session_id: existing.id },
        });
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
      checkoutUrl: `http://localhost:8080/checkout/${randomBase62(22)}`,
      expiresAt: timestampFromDate(new Date(now.getTime() + 24 * 3600_000)),
      checkoutExpiresAt: timestampFromDate(new Date(now.getTime() + 30 * 60_000)),
      createdAt: timestampFromDate(now),
    });
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
      if (at === -1) throw GatewayError.validation([{ field: "starting_after", code: "invalid", message: "Unknown cursor." }]);
      rows = rows.slice(at + 1);
    }
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return { sessions: page, pageInfo: create(PageInfoSchema, { hasMore, nextCursor: hasMore ? page[page.length - 1]!.id : "" }) };
  };

  cancelSession = async (req: CancelSessionRequest) => {
    this.checkFailure();
    const session = this.find(requireScope(req.scope), req.sessionId);
    if (TERMINAL.has(session.status)) {
      throw new GatewayError("SESSION_TERMINAL", `The session is ${SessionStatus[session.status]} and cannot be canceled.`, {
        metadata: { session_id: session.id },
      });
    }
    if (session.status !== SessionStatus.CANCELED) {
      session.status = SessionStatus.CANCELED;
      session.checkoutUrl = "";
      session.checkoutExpiresAt = undefined;
      session.completedAt = timestampFromDate(this.clock.now());
    }
    return { session };
  };

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

