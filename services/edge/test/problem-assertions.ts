import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { ERRORS_URL } from "./fakes/edge-test-harness.js";

/** Asserts an RFC 9457 problem document of the given type and returns it. */
export function expectProblem(
  res: LightMyRequestResponse,
  status: number,
  suffix: string,
  title: string,
): Record<string, unknown> {
  expect(res.statusCode).toBe(status);
  expect(res.headers["content-type"]).toBe("application/problem+json");
  const doc = res.json() as Record<string, unknown>;
  expect(doc.type).toBe(`${ERRORS_URL}/${suffix}`);
  expect(doc.title).toBe(title);
  expect(doc.status).toBe(status);
  expect(typeof doc.detail).toBe("string");
  expect(res.body).not.toMatch(/stack|at .*\.ts:\d+|ConnectError|\[internal\]/i);
  if (suffix !== "validation-error") expect(doc).not.toHaveProperty("errors");
  return doc;
}
