import { expect } from "vitest";
import type { HttpResult } from "./http.js";

/** Asserts an RFC 9457 problem document with the type suffix of docs/api/errors.md and status. */
export function expectProblem(res: HttpResult, status: number, suffix: string, errorsUrl: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.body.type).toBe(`${errorsUrl}/${suffix}`);
  expect(res.body.status).toBe(status);
  expect(typeof res.body.title).toBe("string");
  expect(typeof res.body.detail).toBe("string");
  expect(res.text).not.toMatch(/at .*\.ts:\d+|node_modules|stack/i);
}

/** The `errors[]` codes a 422 carries, as "field:code" strings. */
export function violationCodes(res: HttpResult): string[] {
  return (res.body.errors ?? []).map((e: { field: string; code: string }) => `${e.field}:${e.code}`);
}
