import { newId } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import type { AuditLogRepository } from "../../src/app/ports.js";
import type { AuditEntry } from "../../src/domain/audit-entry.js";

function anEntry(merchantId: string, minute: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: newId("aud"),
    merchantId,
    actorUserId: "usr_1",
    actorEmail: "owner@shop.example",
    action: "api_key.rolled",
    target: "key_1",
    livemode: false,
    ipAddress: "203.0.113.7",
    userAgent: "Mozilla/5.0",
    createdAt: new Date(Date.UTC(2026, 2, 1, 10, minute)),
    ...overrides,
  };
}

export function describeAuditLogRepositoryContract(
  name: string,
  factory: () => Promise<AuditLogRepository>,
): void {
  describe(`AuditLogRepository contract: ${name}`, () => {
    let log: AuditLogRepository;
    beforeEach(async () => {
      log = await factory();
    });

    it("lists a merchant's entries newest first in windows after a position, never another merchant's", async () => {
      const merchantId = newId("mer");
      const entries = [0, 1, 2, 3, 4].map((minute) => anEntry(merchantId, minute));
      for (const entry of [entries[2]!, entries[0]!, entries[4]!, entries[1]!, entries[3]!])
        await log.append(entry);
      await log.append(anEntry(newId("mer"), 5));
      const first = await log.list(merchantId, { limit: 2 });
      expect(first.items).toEqual([entries[4], entries[3]]);
      expect(first.hasMore).toBe(true);
      const position = await log.findPosition(merchantId, entries[3]!.id);
      expect(position).toEqual({ createdAt: entries[3]!.createdAt, id: entries[3]!.id });
      const rest = await log.list(merchantId, { limit: 5, after: position! });
      expect(rest).toEqual({ items: [entries[2], entries[1], entries[0]], hasMore: false });
      expect(await log.findPosition(newId("mer"), entries[3]!.id)).toBeUndefined();
    });

    it("orders entries of the same instant by id", async () => {
      const merchantId = newId("mer");
      const a = anEntry(merchantId, 0, { id: "aud_A" });
      const b = anEntry(merchantId, 0, { id: "aud_B" });
      await log.append(a);
      await log.append(b);
      expect((await log.list(merchantId, { limit: 10 })).items.map((e) => e.id)).toEqual(["aud_B", "aud_A"]);
    });
  });
}
