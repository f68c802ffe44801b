import { describe, expect, it } from "vitest";
import { parseAdminArgs, UsageError } from "../src/admin-commands.js";

describe("parseAdminArgs: refunds", () => {
  it.each([
    [["refunds", "manual"], { method: "GET", path: "/admin/v1/refunds/manual" }],
    [["refunds", "manual", "--limit", "50"], { method: "GET", path: "/admin/v1/refunds/manual?limit=50" }],
    [
      ["refunds", "resolve", "re_1", "--outcome", "SUCCEEDED"],
      { method: "POST", path: "/admin/v1/refunds/re_1/resolution", body: { outcome: "SUCCEEDED" } },
    ],
    [
      ["refunds", "resolve", "re/2", "--outcome", "FAILED", "--note", "acquirer said no"],
      {
        method: "POST",
        path: "/admin/v1/refunds/re%2F2/resolution",
        body: { outcome: "FAILED", note: "acquirer said no" },
      },
    ],
  ])("%j maps to its admin call", (argv, expected) => {
    expect(parseAdminArgs(argv)).toEqual({ kind: "request", request: expected });
  });

  it.each([
    [["refunds", "manual", "mer_1"], /no arguments/],
    [["refunds", "manual", "--limit", " "], /--limit/],
    [["refunds", "manual", "--outcome", "FAILED"], /does not take --outcome/],
    [["refunds", "resolve", "re_1"], /--outcome SUCCEEDED or --outcome FAILED/],
    [["refunds", "resolve", "re_1", "--outcome", "succeeded"], /--outcome SUCCEEDED or --outcome FAILED/],
    [["refunds", "resolve", "--outcome", "FAILED"], /<refund_id>/],
    [["refunds", "resolve", "re_1", "--outcome", "FAILED", "--limit", "3"], /does not take --limit/],
    [["webhooks", "resend", "whd_1", "--note", "x"], /does not take --note/],
  ])("%j is a usage error", (argv, message) => {
    expect(() => parseAdminArgs(argv)).toThrow(UsageError);
    expect(() => parseAdminArgs(argv)).toThrow(message);
  });
});
