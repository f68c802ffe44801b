import { describe, expect, it } from "vitest";
import { createMemorySessionRepository } from "../src/adapters/memory/in-memory-session-repository.js";
import { sessionRepositoryContract } from "./contracts/session-repository.contract.js";
import { newScope, sessionFixture } from "./support/fixtures.js";

const memory = createMemorySessionRepository();
sessionRepositoryContract(
  "in memory",
  async () => memory,
  async (sessionId) =>
    memory.outboxOf(sessionId).map((e) => ({ eventId: e.eventId, published: e.publishedAt !== undefined })),
);

// Not in the contract: FerretDB 1.24 does not enforce unique indexes on array paths (MongoDB
// does), so only this adapter and MongoDB refuse a repeated checkout token.
describe("InMemorySessionRepository checkout tokens", () => {
  it("when a new session reuses a stored checkout token, then the insert reports a generated-value collision", async () => {
    const repo = createMemorySessionRepository();
    const scope = newScope();
    const taken = sessionFixture(scope);
    await repo.insert(taken);
    const clash = sessionFixture(scope);
    clash.checkoutLinks = [{ ...clash.checkoutLinks[0]!, token: taken.checkoutLinks[0]!.token }];
    expect(await repo.insert(clash)).toEqual({ inserted: false, duplicate: "generated_value" });
    expect(await repo.findByReference(scope, clash.merchantReference)).toBeUndefined();
  });
});
