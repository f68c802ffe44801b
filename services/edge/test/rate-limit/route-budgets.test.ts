import { create } from "@bufbuild/protobuf";
import { GatewayError, ManualClock } from "@gateway/platform";
import { AccountScopeSchema } from "@gateway/proto";
import {
  createGcraRateLimiter,
  defaultRateLimitPolicy,
  InMemoryGcraStore,
  type RateLimiter,
} from "@gateway/rate-limiter";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { setCaller } from "../../src/auth/authenticated-caller.js";
import { installProblemHandling } from "../../src/problem/install-problem-handling.js";
import { installRateLimiting } from "../../src/rate-limit/rate-limit-hook.js";
import { budgetsForRoute, routePatternShape } from "../../src/rate-limit/route-budgets.js";
import { ERRORS_URL } from "../fakes/edge-test-harness.js";
import { repeat, statuses } from "./rate-limited-edge.js";

describe("budgets by route", () => {
  it.each([
    ["POST", "/api/v1/gateway/sessions/", ["account", "create"]],
    ["POST", "/api/v1/gateway/sessions/:session_id/checkout/", ["account", "create"]],
    ["POST", "/api/v1/gateway/sessions/:id/checkout/", ["account", "create"]],
    ["POST", "/api/v1/gateway/sessions/:session_id/refund/", ["account", "refund"]],
    ["post", "/api/v1/gateway/sessions/:sid(^ps_\\w+)/refund/", ["account", "refund"]],
    ["GET", "/api/v1/gateway/sessions/list/", ["account"]],
    ["GET", "/api/v1/gateway/sessions/:session_id/", ["account"]],
    ["HEAD", "/api/v1/gateway/sessions/:session_id/", ["account"]],
    ["POST", "/api/v1/gateway/sessions/:session_id/cancel/", ["account"]],
    ["GET", "/api/v1/gateway/sessions/:session_id/refund/", ["account"]],
    ["GET", "/api/v1/gateway/sessions/:session_id/refunds/list/", ["account"]],
  ])("when %s %s is matched, then the request draws on %j", (method, url, budgets) => {
    expect(budgetsForRoute(method, url)).toEqual(budgets);
  });

  it.each([
    ["/admin/v1/merchants"],
    ["/healthz"],
    ["/api/v1/checkout/:token/"],
    ["/checkout/:token"],
    ["/api/v1/gatewayx/"],
  ])("when %s is matched, then it is not a gateway endpoint and has no budget", (url) => {
    expect(budgetsForRoute("POST", url)).toBeUndefined();
  });

  it("when no route matched, then there is no budget", () => {
    expect(budgetsForRoute("GET", undefined)).toBeUndefined();
  });

  it("writes every path parameter as ':' and keeps everything else", () => {
    expect(routePatternShape("/api/v1/gateway/sessions/:session_id/refund/")).toBe(
      "/api/v1/gateway/sessions/:/refund/",
    );
    expect(routePatternShape("/a/:x(^\\d+)/b")).toBe("/a/:/b");
  });
});

/**
 * The checkout and refund routes are registered by other modules; here they stand in with the
 * same paths, behind an API key hook and the rate limit hook as the edge installs them.
 */
describe("rate limits of routes registered by other modules", () => {
  let app: FastifyInstance;
  let limiter: RateLimiter;
  const merchant = "mer_refunds";

  afterEach(async () => {
    await app.close();
    await limiter.close();
  });

  function appWithRoutes(): FastifyInstance {
    const clock = new ManualClock();
    limiter = createGcraRateLimiter({
      store: new InMemoryGcraStore({ clock }),
      policy: defaultRateLimitPolicy,
      clock,
    });
    const server = Fastify();
    installProblemHandling(server, { errorsUrl: ERRORS_URL, maxBodyBytes: 4096 });
    server.register(
      async (api) => {
        api.addHook("onRequest", async (request) => {
          const livemode = request.headers["x-mode"] === "live";
          setCaller(request, {
            scope: create(AccountScopeSchema, { merchantId: merchant, livemode }),
            keyId: "key_1",
          });
        });
        installRateLimiting(api, limiter);
        api.post("/gateway/sessions/", async (_request, reply) => reply.code(201).send({}));
        api.post("/gateway/sessions/:id/checkout/", async (_request, reply) => reply.code(201).send({}));
        // Counting happens before the handler: a refund of an unknown session still spends budget.
        api.post<{ Params: { session_id: string } }>(
          "/gateway/sessions/:session_id/refund/",
          async (request) => {
            throw GatewayError.notFound("session", request.params.session_id);
          },
        );
        api.get("/gateway/sessions/list/", async () => ({ data: [] }));
      },
      { prefix: "/api/v1" },
    );
    return server;
  }

  const send = (method: "GET" | "POST", url: string, mode: "test" | "live" = "test") =>
    app.inject({ method, url: `/api/v1/gateway${url}`, headers: { "x-mode": mode } });

  it("when refunds are sent, then the refund budget (test 2/s) and the account-wide budget are both drawn", async () => {
    app = appWithRoutes();
    const refunds = await repeat(3, () => send("POST", "/sessions/ps_1/refund/"));
    expect(statuses(refunds)).toEqual([404, 404, 429]);
    expect(refunds[2]!.json().detail).toContain(
      "the refund limit of this account's test keys allows 2 per second",
    );
    expect(refunds[2]!.headers["retry-after"]).toBe("1");
    // 2 of the 10 account-wide requests went to the refunds.
    expect(statuses(await repeat(9, () => send("GET", "/sessions/list/")))).toEqual([
      ...Array(8).fill(200),
      429,
    ]);
  });

  it("when the refund budget is spent, then creates are still allowed (separate budgets)", async () => {
    app = appWithRoutes();
    await repeat(2, () => send("POST", "/sessions/ps_1/refund/"));
    expect((await send("POST", "/sessions/ps_1/refund/")).statusCode).toBe(429);
    expect((await send("POST", "/sessions/")).statusCode).toBe(201);
  });

  it("when live refunds are sent, then the live refund budget is 5/s", async () => {
    app = appWithRoutes();
    expect(statuses(await repeat(6, () => send("POST", "/sessions/ps_1/refund/", "live")))).toEqual([
      ...Array(5).fill(404),
      429,
    ]);
  });

  it("when checkouts and creates are mixed, then they share the create budget", async () => {
    app = appWithRoutes();
    const mixed = [
      ...(await repeat(3, () => send("POST", "/sessions/"))),
      ...(await repeat(3, () => send("POST", "/sessions/ps_1/checkout/"))),
    ];
    expect(statuses(mixed)).toEqual([201, 201, 201, 201, 201, 429]);
    expect(mixed[5]!.json().detail).toContain("the create limit");
  });
});
