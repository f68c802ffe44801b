import { describe, expect, it } from "vitest";
import { parseAdminArgs, UsageError } from "../src/admin-commands.js";

describe("parseAdminArgs: webhooks", () => {
  it.each([
    [
      ["webhooks", "set-endpoint", "mer_1", "test", "--url", "https://shop.example/hooks"],
      {
        method: "PUT",
        path: "/admin/v1/merchants/mer_1/webhook-endpoints/test",
        body: { url: "https://shop.example/hooks" },
      },
    ],
    [
      ["webhooks", "rotate-secret", "mer_1", "live"],
      { method: "POST", path: "/admin/v1/merchants/mer_1/webhook-endpoints/live/rotate-secret" },
    ],
    [["webhooks", "resend", "whd_1"], { method: "POST", path: "/admin/v1/webhook-deliveries/whd_1/resend" }],
    [
      [
        "webhooks",
        "resend-all",
        "mer_1",
        "test",
        "--status",
        "FAILED",
        "--event",
        "session.succeeded",
        "--created-gte",
        "2026-11-01T00:00:00Z",
      ],
      {
        method: "POST",
        path: "/admin/v1/webhook-deliveries/resend",
        body: {
          merchant_id: "mer_1",
          mode: "test",
          status: "FAILED",
          event: "session.succeeded",
          created_gte: "2026-11-01T00:00:00Z",
        },
      },
    ],
    [
      ["webhooks", "resend-all", "mer_1", "live"],
      {
        method: "POST",
        path: "/admin/v1/webhook-deliveries/resend",
        body: { merchant_id: "mer_1", mode: "live" },
      },
    ],
  ])("%j maps to its admin call", (argv, expected) => {
    expect(parseAdminArgs(argv)).toEqual({ kind: "request", request: expected });
  });

  it.each([
    [["webhooks", "set-endpoint", "mer_1", "test"], /--url/],
    [["webhooks", "set-endpoint", "mer_1", "prod", "--url", "https://x"], /test or live/],
    [["webhooks", "rotate-secret", "mer_1"], /<merchant_id> <mode>/],
    [["webhooks", "resend"], /<delivery_id>/],
    [["webhooks", "resend", "whd_1", "--url", "https://x"], /does not take --url/],
  ])("%j is a usage error", (argv, message) => {
    expect(() => parseAdminArgs(argv)).toThrow(UsageError);
    expect(() => parseAdminArgs(argv)).toThrow(message);
  });
});
