import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorCatalog } from "@gateway/platform";
import { pythonTool } from "@gateway/testkit";
import { Value } from "@sinclair/typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument, openApiText } from "../../src/api/openapi.js";
import { type Operation, operations } from "../../src/api/operations.js";
import { createTestEdge, type TestEdge } from "../fakes/edge-test-harness.js";

const repoRoot = new URL("../../../../", import.meta.url).pathname;
const committed = join(repoRoot, "docs/api/openapi.json");

describe("the OpenAPI 3.1 document", () => {
  it("is committed exactly as the code produces it (npm run docs:openapi)", () => {
    const onDisk = existsSync(committed) ? readFileSync(committed, "utf8") : "";
    expect(
      onDisk,
      "docs/api/openapi.json differs from the route schemas: run 'npm run docs:openapi' and commit it",
    ).toBe(openApiText());
  });

  it("validates as OpenAPI 3.1 with openapi-spec-validator", () => {
    const file = join(mkdtempSync(join(tmpdir(), "openapi-")), "openapi.json");
    writeFileSync(file, openApiText());
    const out = execFileSync(pythonTool("openapi-spec-validator"), ["--schema", "3.1", file], {
      encoding: "utf8",
    });
    expect(out).toContain(": OK");
  });

  it("has an example for every operation, each valid against its own schema", () => {
    for (const op of Object.values(operations) as Operation[]) {
      if (op.request.body)
        expect(
          Value.Check(op.request.body, op.request.bodyExample),
          `${op.operationId} request example`,
        ).toBe(true);
      expect(Object.keys(op.responses).length, op.operationId).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(Value.Check(response.schema, response.example), `${op.operationId} ${status} example`).toBe(
          true,
        );
        // Links name operations that exist and take a session id.
        for (const target of response.links ?? [])
          expect((operations as Record<string, Operation>)[target]?.url, target).toContain(":session_id");
      }
    }
  });

  it("documents every problem type with its status, and each operation's problems with examples", () => {
    const doc = buildOpenApiDocument() as any;
    for (const entry of Object.values(errorCatalog)) {
      expect(doc["x-problem-types"][entry.problemType]).toMatchObject({
        status: entry.httpStatus,
        title: entry.title,
      });
    }
    const create = doc.paths["/api/v1/gateway/sessions/"].post;
    expect(Object.keys(create.responses)).toEqual(
      expect.arrayContaining(["200", "201", "400", "401", "409", "413", "415", "422", "429", "500", "503"]),
    );
    expect(Object.keys(create.responses["422"].content["application/problem+json"].examples)).toEqual(
      expect.arrayContaining(["validation-error", "no-terminal-configured", "terminal-inactive"]),
    );
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/api/v1/gateway/events/stream/",
      "/api/v1/gateway/sessions/",
      "/api/v1/gateway/sessions/list/",
      "/api/v1/gateway/sessions/{session_id}/",
      "/api/v1/gateway/sessions/{session_id}/cancel/",
      "/api/v1/gateway/sessions/{session_id}/checkout/",
      "/api/v1/gateway/sessions/{session_id}/refund/",
      "/api/v1/gateway/sessions/{session_id}/webhooks/",
      "/api/v1/gateway/webhooks/",
      "/api/v1/gateway/webhooks/{delivery_id}/resend/",
    ]);
  });
});

describe("served by the edge", () => {
  let t: TestEdge;
  beforeAll(() => {
    t = createTestEdge();
  });
  afterAll(async () => {
    await t.app.close();
  });

  it("answers GET /api/v1/openapi.json without an API key, the committed document", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/v1/openapi.json" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.body).toBe(openApiText());
  });

  it("renders /docs on the server, every operation and problem type, nothing from elsewhere", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
    for (const op of Object.values(operations)) expect(res.body).toContain(`id="${op.operationId}"`);
    for (const entry of Object.values(errorCatalog))
      expect(res.body).toContain(`<code>${entry.problemType}</code>`);
    expect(res.body).not.toMatch(/<script|https?:\/\/(?!gateway\.example|shop\.example|pay\.example)[a-z]/i);
  });
});
