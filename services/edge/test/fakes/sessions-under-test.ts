import { create } from "@bufbuild/protobuf";
import {
  type Client,
  Code,
  ConnectError,
  createClient,
  type Interceptor,
  type Transport,
} from "@connectrpc/connect";
import type { Acquirer, Terminal, TerminalProvider } from "@gateway/acquirer";
import { type Clock, createInProcessTransport, GatewayError, type Logger } from "@gateway/platform";
import {
  type AccountScope,
  AccountScopeSchema,
  type CreateSessionRequest,
  type Session,
  SessionService,
  SettlementSource,
} from "@gateway/proto";
import {
  createMemorySessionRepository,
  createSessionsRoutes,
  type InMemorySessionRepository,
} from "@gateway/sessions";
import { InMemoryAcquirer, REJECTED_TERMINAL_USERNAME } from "./in-memory-acquirer.js";

/** 1 EUR = 3.3 TND: the one rate every test account has, as if set in its currency settings. */
export const TEST_EUR_RATE = "3.300000";

export type TerminalProblem = "NO_TERMINAL_CONFIGURED" | "TERMINAL_INACTIVE" | "TERMINAL_REJECTED";

export interface SessionsUnderTestOptions {
  /** Base of checkout links and of the acquirer's return URL. Default http://localhost:8080. */
  publicUrl?: string;
  /** Most unexpired checkout links a session may have at once. Default 3. */
  checkoutLinkLimit?: number;
  /** Default: an InMemoryAcquirer whose orders the test decides. */
  acquirer?: Acquirer;
  /** The terminal every account has. Default: one the in-memory acquirer accepts. */
  terminal?: Terminal;
}

/**
 * The real sessions service (its routes, rules and in-memory repository), reached over the
 * in-process transport as in embedded mode, for the edge's tests. Only what lies outside it is
 * a test double: the acquirer (an external system) and the small answers accounts would give
 * (merchant names, the EUR rate, terminals). Tests also see what the edge sent it, and can make
 * it fail or answer differently, as a broken or misbehaving service would.
 */
export class SessionsUnderTest {
  readonly repo: InMemorySessionRepository = createMemorySessionRepository();
  readonly acquirer: Acquirer;
  /** GetCheckout's merchant name per merchant id ("Test Shop" when absent). */
  readonly merchantNames = new Map<string, string>();
  /** A merchant's terminal problem, as accounts (or the acquirer, for TERMINAL_REJECTED) reports it. */
  readonly terminalProblems = new Map<string, TerminalProblem>();
  /** Every CreateSessionRequest received, to check what the edge sent. */
  readonly createRequests: CreateSessionRequest[] = [];
  /** Every StartPayment received. */
  readonly startRequests: Array<{ token: string; language: string }> = [];
  /** Every SettleAttempt received, to check who settled (return, callback). */
  readonly settleRequests: Array<{ acquirerOrderId: string; source: SettlementSource }> = [];
  /** When set, every call throws it (to test how the edge answers a service's failures). */
  failWith: unknown = undefined;
  /** When set, changes each answer before the edge gets it (a service answering with bad data). */
  rewriteAnswer: ((method: string, answer: Record<string, unknown>) => void) | undefined = undefined;
  /** The scope of every session created here, so helpers can read it back. */
  private readonly scopes = new Map<string, AccountScope>();
  readonly routes: ReturnType<typeof createSessionsRoutes>;
  readonly client: Client<typeof SessionService>;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: SessionsUnderTestOptions = {},
  ) {
    this.acquirer = options.acquirer ?? new InMemoryAcquirer();
    this.routes = createSessionsRoutes({
      repo: this.repo,
      rates: { rateFor: async (_merchant, currency) => (currency === "EUR" ? TEST_EUR_RATE : undefined) },
      clock,
      logger,
      config: {
        publicBaseUrl: options.publicUrl ?? "http://localhost:8080",
        sessionLifetimeMs: 24 * 3600_000,
        checkoutLinkLifetimeMs: 30 * 60_000,
        checkoutLinkLimit: options.checkoutLinkLimit ?? 3,
      },
      acquirer: this.acquirer,
      terminals: this.terminalProvider(
        options.terminal ?? { baseUrl: "https://acquirer.test", username: "test-terminal", password: "pw" },
      ),
      fees: { feePlanFor: async () => ({ percent: "0", fixedMinor: 0n }) },
      merchants: { merchantName: async (merchantId) => this.merchantNames.get(merchantId) ?? "Test Shop" },
    });
    this.client = createClient(SessionService, this.transport());
  }

  /** The transport the edge calls, behind the server interceptors every service has. */
  transport(clientInterceptors: Interceptor[] = []): Transport {
    return createInProcessTransport({
      name: "sessions",
      routes: this.routes,
      logger: this.logger,
      interceptors: [this.observer()],
      clientInterceptors,
    });
  }

  /** Creates a session directly on the service, as another caller than the edge would. */
  createSession(req: CreateSessionRequest) {
    return this.client.createSession(req);
  }

  settleAttempt(req: { acquirerOrderId: string; source: SettlementSource }) {
    return this.client.settleAttempt(req);
  }

  cancelSession(req: { scope?: AccountScope; sessionId: string }) {
    return this.client.cancelSession(req);
  }

  /** The session as the service answers it now. */
  async get(sessionId: string): Promise<Session> {
    const { session } = await this.client.getSession({ scope: this.scopeOf(sessionId), sessionId });
    return session!;
  }

  /** The session in `scope`, or undefined when that account has none with this id (NOT_FOUND). */
  async find(scope: AccountScope, sessionId: string): Promise<Session | undefined> {
    try {
      return (await this.client.getSession({ scope, sessionId })).session;
    } catch (err) {
      if (ConnectError.from(err).code === Code.NotFound) return undefined;
      throw err;
    }
  }

  /** Every session created so far, oldest first, as the service answers them now. */
  async all(): Promise<Session[]> {
    return Promise.all([...this.scopes.keys()].map((id) => this.get(id)));
  }

  /** How many sessions the service stores. */
  get count(): number {
    return this.scopes.size;
  }

  /** The token of the session's current checkout link. */
  async tokenOf(sessionId: string): Promise<string> {
    const session = await this.get(sessionId);
    const token = session.checkoutUrl.split("/checkout/")[1];
    if (!token) throw new Error(`session ${sessionId} has no checkout link`);
    return token;
  }

  /** Pays the session as a buyer would: Pay, the card page approves, the return settles it. */
  async pay(sessionId: string): Promise<Session> {
    const token = await this.tokenOf(sessionId);
    await this.client.startPayment({ token, language: "en" });
    const attempt = (await this.get(sessionId)).attempts.at(-1)!;
    this.inMemoryAcquirer().decide(attempt.acquirerOrderId, {
      status: "SUCCEEDED",
      cardBrand: "visa",
      lastFour: "4242",
    });
    const { session } = await this.settleAttempt({
      acquirerOrderId: attempt.acquirerOrderId,
      source: SettlementSource.RETURN,
    });
    return session!;
  }

  /** The session lifetime ran out: stores what the sweeper stores when it expires a session. */
  async expireSession(sessionId: string): Promise<void> {
    const scope = this.scopeOf(sessionId);
    const stored = await this.repo.findById(
      { merchantId: scope.merchantId, livemode: scope.livemode },
      sessionId,
    );
    if (!stored) throw new Error(`unknown session ${sessionId}`);
    const now = this.clock.now();
    const result = await this.repo.updateIf(stored, {
      status: "EXPIRED",
      completedAt: now,
      updatedAt: now,
      linkExpiryDueAt: null,
    });
    if (!result.updated) throw new Error(`session ${sessionId} changed while expiring it`);
  }

  /** The in-memory acquirer, for tests that decide what the buyer did on the card page. */
  inMemoryAcquirer(): InMemoryAcquirer {
    if (!(this.acquirer instanceof InMemoryAcquirer)) throw new Error("these sessions use another acquirer");
    return this.acquirer;
  }

  private scopeOf(sessionId: string): AccountScope {
    const scope = this.scopes.get(sessionId);
    if (!scope) throw new Error(`no session ${sessionId} was created through this service`);
    return create(AccountScopeSchema, scope);
  }

  private terminalProvider(terminal: Terminal): TerminalProvider {
    return {
      terminalFor: async (scope) => {
        const problem = this.terminalProblems.get(scope.merchantId);
        if (problem === "TERMINAL_REJECTED") return { ...terminal, username: REJECTED_TERMINAL_USERNAME };
        if (problem) throw new GatewayError(problem, "The account's acquirer terminal cannot take payments.");
        return terminal;
      },
    };
  }

  /** Records what the edge sent, fails when told to, and remembers every session's scope. */
  private observer(): Interceptor {
    return (next) => async (req) => {
      if (this.failWith !== undefined) throw this.failWith;
      const message = req.message as Record<string, unknown>;
      if (req.method.name === "CreateSession") this.createRequests.push(req.message as CreateSessionRequest);
      if (req.method.name === "StartPayment")
        this.startRequests.push({ token: String(message.token), language: String(message.language) });
      if (req.method.name === "SettleAttempt")
        this.settleRequests.push({
          acquirerOrderId: String(message.acquirerOrderId),
          source: message.source as SettlementSource,
        });
      const res = await next(req);
      if (res.stream) return res;
      const answer = res.message as unknown as Record<string, unknown>;
      const session = answer.session as Session | undefined;
      if (session?.scope) this.scopes.set(session.id, session.scope);
      this.rewriteAnswer?.(req.method.name, answer);
      return res;
    };
  }
}
