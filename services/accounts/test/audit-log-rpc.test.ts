import { createClient } from "@connectrpc/connect";
import { fromConnectError, ManualClock } from "@gateway/platform";
import { AuditLogService } from "@gateway/proto";
import { describe, expect, it } from "vitest";
import { connectErrorOf } from "./support/connect-error-of.js";
import { inProcessAccounts } from "./support/in-process-accounts.js";

const entry = (merchantId: string, action: string) => ({
  merchantId,
  actorUserId: "usr_1",
  actorEmail: "owner@shop.example",
  action,
  target: "key_1",
  livemode: false,
  ipAddress: "203.0.113.7",
  userAgent: "x".repeat(400),
});

describe("AuditLogService over Connect", () => {
  it("records actions stamped with the service's time, lists them newest first with a cursor, per merchant", async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 10));
    const log = createClient(AuditLogService, inProcessAccounts(clock).transport);
    const recorded = [];
    for (const action of ["api_key.created", "api_key.rolled", "refund.created"]) {
      recorded.push((await log.recordAuditEntry(entry("mer_a", action))).entry!);
      clock.advance(1000);
    }
    await log.recordAuditEntry(entry("mer_b", "session.canceled"));
    expect(recorded[0]!.userAgent).toHaveLength(256);
    const first = await log.listAuditEntries({ merchantId: "mer_a", page: { limit: 2, startingAfter: "" } });
    expect(first.entries.map((e) => e.action)).toEqual(["refund.created", "api_key.rolled"]);
    expect(first.pageInfo?.hasMore).toBe(true);
    const rest = await log.listAuditEntries({
      merchantId: "mer_a",
      page: { limit: 2, startingAfter: first.pageInfo!.nextCursor },
    });
    expect(rest.entries.map((e) => e.action)).toEqual(["api_key.created"]);
    const foreign = await connectErrorOf(
      log.listAuditEntries({ merchantId: "mer_b", page: { limit: 2, startingAfter: recorded[0]!.id } }),
    );
    expect(fromConnectError(foreign).violations.map((v) => v.field)).toEqual(["starting_after"]);
    const bad = await connectErrorOf(log.recordAuditEntry(entry("mer_a", "Rolled Key!")));
    expect(fromConnectError(bad).violations.map((v) => v.field)).toEqual(["action"]);
  });
});
