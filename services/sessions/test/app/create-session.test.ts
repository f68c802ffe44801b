import { GatewayError, ManualClock } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { createMemorySessionRepository } from "../../src/adapters/memory/in-memory-session-repository.js";
import { type CreateSessionDeps, createSession } from "../../src/app/create-session.js";
import type { ExchangeRateProvider, SessionRepository } from "../../src/app/ports.js";
import { ACTIVE_TERMINALS, createInput, fakeRates, LIFETIMES, newScope } from "../support/fixtures.js";
import { fakeTerminals } from "../support/payment-fakes.js";

function setup(
  rates: ExchangeRateProvider = fakeRates({ EUR: "3.400000", USD: "2.950000" }),
  repo: SessionRepository = createMemorySessionRepository(),
) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 9));
  const deps: CreateSessionDeps = { repo, rates, terminals: ACTIVE_TERMINALS, clock, lifetimes: LIFETIMES };
  return { deps, clock, repo, scope: newScope() };
}

async function failure(promise: Promise<unknown>): Promise<GatewayError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error("expected a GatewayError");
}

describe("createSession", () => {
  it("when the reference holds a control character, then the store is not asked and the answer is a validation error", async () => {
    const memory = createMemorySessionRepository();
    // As FerretDB on PostgreSQL answers a query holding a NUL: an error, not "nothing found".
    const repo = Object.assign(Object.create(memory), {
      findByReference: async () => {
        throw new Error("the store cannot be asked about this reference");
      },
    }) as SessionRepository;
    const { deps, scope } = setup(undefined, repo);
    const error = await failure(createSession(deps, createInput(scope, { merchantReference: "r\u0000" })));
    expect(error.reason).toBe("VALIDATION_ERROR");
    expect(error.violations.map((v) => [v.field, v.code])).toEqual([["merchant_reference", "invalid"]]);
  });

  it("when the reference is new, then the store is asked only to insert; a repeat is found through the refused insert", async () => {
    const memory = createMemorySessionRepository();
    const asked: string[] = [];
    const repo = Object.assign(Object.create(memory), {
      insert: (session: Parameters<SessionRepository["insert"]>[0]) => {
        asked.push("insert");
        return memory.insert(session);
      },
      findByReference: (...args: Parameters<SessionRepository["findByReference"]>) => {
        asked.push("findByReference");
        return memory.findByReference(...args);
      },
    }) as SessionRepository;
    const { deps, scope } = setup(undefined, repo);
    const first = await createSession(deps, createInput(scope, { merchantReference: "r-new" }));
    expect(asked).toEqual(["insert"]);
    const repeat = await createSession(deps, createInput(scope, { merchantReference: "r-new" }));
    expect(repeat).toEqual({ session: first.session, created: false });
  });

  it("when a TND request is valid, then a CREATED session is stored with rate 1.000000", async () => {
    const { deps, scope, repo, clock } = setup();
    const { session, created } = await createSession(
      deps,
      createInput(scope, { merchantReference: "r-1", amount: "125.500" }),
    );
    expect(created).toBe(true);
    expect(session).toMatchObject({
      status: "CREATED",
      amountMinor: 125500n,
      currency: "TND",
      original: { amountMinor: 125500n, currency: "TND", rate: "1.000000" },
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + LIFETIMES.sessionLifetimeMs),
      attempts: [],
    });
    expect(await repo.findById(scope, session.id)).toEqual(session);
  });

  it("when EUR 10.00 is asked at the account's rate 3.4, then the session is 34.000 TND", async () => {
    const { deps, scope } = setup(fakeRates({ EUR: "3.400000" }));
    const { session } = await createSession(deps, createInput(scope, { amount: "10.00", currency: "EUR" }));
    expect(session.amountMinor).toBe(34000n);
    expect(session.original).toEqual({ amountMinor: 1000n, currency: "EUR", rate: "3.400000" });
  });

  it("when the reference repeats with the same request, then the same session comes back, not created", async () => {
    const { deps, scope, clock } = setup();
    const input = createInput(scope, {
      merchantReference: "r-2",
      amount: "10.00",
      currency: "EUR",
      metadataJson: '{"k":1}',
    });
    const first = await createSession(deps, input);
    clock.advance(60_000);
    const again = await createSession(deps, { ...input });
    expect(again).toEqual({ session: first.session, created: false });
  });

  it("when the reference repeats with a different amount, then it is a conflict naming the existing session", async () => {
    const { deps, scope } = setup();
    const first = await createSession(
      deps,
      createInput(scope, { merchantReference: "r-3", amount: "10.000" }),
    );
    const err = await failure(
      createSession(deps, createInput(scope, { merchantReference: "r-3", amount: "11.000" })),
    );
    expect(err.reason).toBe("CONFLICT");
    expect(err.message).toBe(
      "A session with this merchant_reference already exists with different parameters.",
    );
    expect(err.metadata).toEqual({ existing_session_id: first.session.id });
  });

  it("when the reference repeats in the other mode or for another merchant, then a new session is created", async () => {
    const { deps, scope } = setup();
    const a = await createSession(deps, createInput(scope, { merchantReference: "shared" }));
    const b = await createSession(
      deps,
      createInput({ ...scope, livemode: true }, { merchantReference: "shared" }),
    );
    const c = await createSession(deps, createInput(newScope(), { merchantReference: "shared" }));
    expect(new Set([a.session.id, b.session.id, c.session.id]).size).toBe(3);
    expect([a.created, b.created, c.created]).toEqual([true, true, true]);
  });

  it("when a repeat comes after the account's rate changed or was removed, then the stored session is still returned", async () => {
    const rates = { EUR: "3.400000" } as Record<string, string>;
    const { deps, scope } = setup(fakeRates(rates));
    const input = createInput(scope, { merchantReference: "r-4", amount: "10.00", currency: "EUR" });
    const first = await createSession(deps, input);
    rates.EUR = "3.500000";
    expect((await createSession(deps, input)).session).toEqual(first.session);
    delete rates.EUR;
    expect((await createSession(deps, input)).session).toEqual(first.session);
  });

  it("when the request is invalid, then nothing is stored and every violation is reported", async () => {
    const { deps, scope, repo } = setup(fakeRates({}));
    const input = createInput(scope, {
      merchantReference: "r-5",
      amount: "10.00",
      currency: "EUR",
      buyerEmail: "x",
    });
    const err = await failure(createSession(deps, input));
    expect(err.reason).toBe("VALIDATION_ERROR");
    expect(err.violations.map((v) => `${v.field}:${v.code}`)).toEqual([
      "currency:currency_unsupported",
      "buyer_email:invalid",
    ]);
    expect(await repo.findByReference(scope, "r-5")).toBeUndefined();
  });

  it("when a repeat of a stored reference is invalid, then it is a validation error, not the session", async () => {
    const { deps, scope } = setup();
    await createSession(deps, createInput(scope, { merchantReference: "r-6" }));
    expect(
      (
        await failure(
          createSession(deps, createInput(scope, { merchantReference: "r-6", amount: "1,000.000" })),
        )
      ).reason,
    ).toBe("VALIDATION_ERROR");
  });

  for (const reason of ["NO_TERMINAL_CONFIGURED", "TERMINAL_INACTIVE", "SERVICE_UNAVAILABLE"] as const) {
    it(`when the account's terminal lookup fails with ${reason}, then the create fails with it and nothing is stored`, async () => {
      const { deps, scope, repo } = setup();
      const terminals = fakeTerminals({
        baseUrl: "http://127.0.0.1:9/epg/rest",
        username: "u",
        password: "p",
      });
      terminals.set(scope.merchantId, reason);
      const err = await failure(
        createSession({ ...deps, terminals }, createInput(scope, { merchantReference: "r-nt" })),
      );
      expect(err.reason).toBe(reason);
      expect(await repo.findByReference(scope, "r-nt")).toBeUndefined();
      expect(terminals.lookups).toEqual([scope]);
    });
  }

  it("when a stored reference repeats after the terminal went inactive, then the stored session comes back", async () => {
    const { deps, scope } = setup();
    const terminals = fakeTerminals({ baseUrl: "http://127.0.0.1:9/epg/rest", username: "u", password: "p" });
    const input = createInput(scope, { merchantReference: "r-repeat" });
    const first = await createSession({ ...deps, terminals }, input);
    terminals.set(scope.merchantId, "TERMINAL_INACTIVE");
    expect((await createSession({ ...deps, terminals }, input)).session).toEqual(first.session);
  });

  it("when the request is invalid and the account has no terminal, then the violations are reported first", async () => {
    const { deps, scope } = setup();
    const terminals = fakeTerminals();
    const err = await failure(createSession({ ...deps, terminals }, createInput(scope, { amount: "1,0" })));
    expect(err.reason).toBe("VALIDATION_ERROR");
  });

  it("when TND is asked, then no exchange rate is looked up", async () => {
    const rates = fakeRates({});
    const { deps, scope } = setup(rates);
    await createSession(deps, createInput(scope));
    expect(rates.lookups).toBe(0);
  });

  it("when the rate lookup fails, then the failure propagates and nothing is stored", async () => {
    const down: ExchangeRateProvider = {
      rateFor: async () => {
        throw new GatewayError("SERVICE_UNAVAILABLE", "A gateway dependency is temporarily unavailable.");
      },
    };
    const { deps, scope, repo } = setup(down);
    const err = await failure(
      createSession(deps, createInput(scope, { merchantReference: "r-7", amount: "10.00", currency: "EUR" })),
    );
    expect(err.reason).toBe("SERVICE_UNAVAILABLE");
    expect(await repo.findByReference(scope, "r-7")).toBeUndefined();
  });

  it("when a generated value collides, then new ones are drawn and the create succeeds", async () => {
    const inner = createMemorySessionRepository();
    let collisions = 2;
    const flaky: SessionRepository = {
      ...bind(inner),
      insert: async (s) =>
        collisions-- > 0 ? { inserted: false, duplicate: "generated_value" } : inner.insert(s),
    };
    const { deps, scope } = setup(undefined, flaky);
    const { session, created } = await createSession(deps, createInput(scope, { merchantReference: "r-8" }));
    expect(created).toBe(true);
    expect((await inner.findById(scope, session.id))?.merchantReference).toBe("r-8");
  });

  it("when generated values keep colliding, then the create fails retryably after five draws", async () => {
    let draws = 0;
    const full: SessionRepository = {
      ...bind(createMemorySessionRepository()),
      insert: async () => {
        draws++;
        return { inserted: false, duplicate: "generated_value" };
      },
    };
    const { deps, scope } = setup(undefined, full);
    expect((await failure(createSession(deps, createInput(scope)))).reason).toBe("SERVICE_UNAVAILABLE");
    expect(draws).toBe(5);
  });
});

function bind(repo: SessionRepository): SessionRepository {
  return {
    insert: (s) => repo.insert(s),
    findById: (scope, id) => repo.findById(scope, id),
    findByReference: (scope, ref) => repo.findByReference(scope, ref),
    list: (scope, filter, page) => repo.list(scope, filter, page),
    updateIf: (s, c, e) => repo.updateIf(s, c, e),
    findByCheckoutToken: (t) => repo.findByCheckoutToken(t),
    findByAcquirerOrderId: (o) => repo.findByAcquirerOrderId(o),
    findPendingOutbox: (l) => repo.findPendingOutbox(l),
    findDue: (n, l) => repo.findDue(n, l),
    markOutboxPublished: (s, e, at) => repo.markOutboxPublished(s, e, at),
  };
}
