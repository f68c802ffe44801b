import { createClient, createRouterTransport } from "@connectrpc/connect";
import { simulatorTerminalBaseUrl } from "@gateway/acquirer";
import { createEpgSimulator, type EpgSimulator } from "@gateway/epg-simulator";
import { createLogger, errorDetailInterceptor, ManualClock } from "@gateway/platform";
import { AccountsService, SessionService } from "@gateway/proto";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { createEdgeApp } from "../../src/index.js";
import { FakeAccountsService } from "../fakes/fake-accounts-service.js";
import { SessionsUnderTest } from "../fakes/sessions-under-test.js";
import { form } from "./checkout-test-support.js";

const PUBLIC_URL = "http://gateway.test";

function edgeWith(simulator: EpgSimulator | undefined): FastifyInstance {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 10, 0, 0));
  const router = { router: { interceptors: [errorDetailInterceptor("test")] } };
  const logger = createLogger({ service: "edge", level: "silent" });
  return createEdgeApp({
    accounts: createClient(
      AccountsService,
      createRouterTransport((r) => r.service(AccountsService, new FakeAccountsService(clock)), router),
    ),
    sessions: createClient(SessionService, new SessionsUnderTest(clock, logger).transport()),
    logger,
    clock,
    config: {
      errorsUrl: `${PUBLIC_URL}/errors`,
      maxBodyBytes: 1024,
      authCacheTtlMs: 1000,
      checkout: { publicUrl: PUBLIC_URL },
    },
    ...(simulator === undefined ? {} : { epgSimulator: simulator }),
  });
}

describe("the EPG simulator mounted on the edge (embedded mode)", () => {
  let simulator: EpgSimulator | undefined;
  afterEach(() => simulator?.stop());

  async function register(app: FastifyInstance) {
    const body = form({
      userName: "sim-merchant",
      password: "sim-password",
      orderNumber: "ORD-MOUNT1-1",
      amount: "125500",
      currency: "788",
      returnUrl: `${PUBLIC_URL}/checkout/return`,
      language: "fr",
    });
    const res = await app.inject({
      method: "POST",
      url: "/epg/rest/register.do",
      payload: body.payload,
      headers: body.headers,
    });
    return res;
  }

  it("when the protocol is called with a form body, then the simulator reads it itself (no 415 from the edge)", async () => {
    simulator = createEpgSimulator({ publicUrl: PUBLIC_URL });
    const app = edgeWith(simulator);
    const res = await register(app);
    expect(res.statusCode).toBe(200);
    expect(res.headers["request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const answer = res.json() as { orderId: string; formUrl: string };
    expect(answer.formUrl).toBe(`${PUBLIC_URL}/epg/payment/${answer.orderId}`);
    expect(simulatorTerminalBaseUrl(PUBLIC_URL)).toBe(`${PUBLIC_URL}/epg/rest`);
  });

  it("serves the card page and sends the buyer back to the edge's return URL after a card", async () => {
    simulator = createEpgSimulator({ publicUrl: PUBLIC_URL });
    const app = edgeWith(simulator);
    const { orderId } = (await register(app)).json() as { orderId: string };
    const page = await app.inject({ method: "GET", url: `/epg/payment/${orderId}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toContain('autocomplete="cc-number"');
    expect(page.body).toContain('lang="fr"');
    const card = form({
      cardholder_name: "Amal Ben Salah",
      card_number: "4242 4242 4242 4242",
      expiry: "12/30",
      cvc: "123",
    });
    const paid = await app.inject({
      method: "POST",
      url: `/epg/payment/${orderId}`,
      payload: card.payload,
      headers: card.headers,
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`${PUBLIC_URL}/checkout/return?orderId=${orderId}`);
  });

  it("answers the simulator's own 404 for unknown /epg paths", async () => {
    simulator = createEpgSimulator({ publicUrl: PUBLIC_URL });
    const res = await edgeWith(simulator).inject({ method: "GET", url: "/epg/nothing-here" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
  });

  it("when no simulator is given, then /epg is not served (a problem document 404)", async () => {
    simulator = undefined;
    const res = await edgeWith(undefined).inject({
      method: "POST",
      url: "/epg/rest/register.do",
      payload: "a=b",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toBe("application/problem+json");
  });
});
