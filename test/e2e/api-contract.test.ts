import { readFileSync } from "node:fs";
import { Value } from "@sinclair/typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../services/edge/src/api/operations.js";
import {
  type GatewayTarget,
  startDistributedTarget,
  startEmbeddedTarget,
} from "./support/gateway-targets.js";
import { merchantApi, request } from "./support/http.js";

// Issue 14 item 1 in both modes: the OpenAPI document and the /docs page are served, and the
// running gateway's answers conform to the response schemas the document publishes.
const DEMO_KEY = "sk_test_ApiContract01AbcdefghijklmnopqrstuvwxyzABCDE";
const committed = readFileSync(new URL("../../docs/api/openapi.json", import.meta.url), "utf8");

const embedded = () => startEmbeddedTarget(DEMO_KEY);
const distributed = () => startDistributedTarget(`e2e_contract_${Date.now().toString(36)}`);

const conforms = (schema: Parameters<typeof Value.Check>[0], body: unknown) =>
  [...Value.Errors(schema, body)].map((e) => `${e.path}: ${e.message}`);

describe.each([
  ["embedded", embedded],
  ["distributed", distributed],
] as const)("API contract, %s mode", (_mode, start) => {
  let target: GatewayTarget;

  beforeAll(async () => {
    target = await start();
  });

  afterAll(async () => {
    await target?.stop();
  });

  it("serves the committed OpenAPI document and the reference page without an API key", async () => {
    const doc = await request(`${target.url}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect(doc.text).toBe(committed);
    const page = await request(`${target.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain('id="createSession"');
  });

  it("answers every session and delivery operation as its response schema says", async () => {
    const api = merchantApi(target.url, target.demoKey);
    const created = await api.createSession({
      merchant_reference: "contract-1",
      amount: "12.500",
      metadata: { a: 1 },
      items: [{ name: "x", quantity: 1, unit_price: "12.500" }],
    });
    expect(created.status, created.text).toBe(201);
    expect(conforms(operations.createSession.responses[201].schema, created.body)).toEqual([]);
    const again = await api.createSession({
      merchant_reference: "contract-1",
      amount: "12.500",
      metadata: { a: 1 },
      items: [{ name: "x", quantity: 1, unit_price: "12.500" }],
    });
    expect(conforms(operations.createSession.responses[200].schema, again.body)).toEqual([]);
    const id = created.body.id as string;
    expect(conforms(operations.getSession.responses[200].schema, (await api.getSession(id)).body)).toEqual(
      [],
    );
    expect(
      conforms(operations.listSessions.responses[200].schema, (await api.listSessions({ limit: "5" })).body),
    ).toEqual([]);
    const link = await api.createCheckoutLink(id);
    expect(link.status, link.text).toBe(201);
    expect(conforms(operations.createCheckoutLink.responses[201].schema, link.body)).toEqual([]);
    const deliveries = await api.sessionDeliveries(id);
    expect(conforms(operations.listSessionDeliveries.responses[200].schema, deliveries.body)).toEqual([]);
    const all = await api.listDeliveries();
    expect(conforms(operations.listDeliveries.responses[200].schema, all.body)).toEqual([]);
    const canceled = await api.cancelSession(id);
    expect(canceled.status, canceled.text).toBe(200);
    expect(conforms(operations.cancelSession.responses[200].schema, canceled.body)).toEqual([]);
  });
});
