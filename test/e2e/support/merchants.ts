import { expect } from "vitest";
import type { AdminApi } from "./http.js";

export interface TestMerchant {
  id: string;
  testKey: string;
  liveKey: string;
  testKeyId: string;
  liveKeyId: string;
}

/** A verified merchant with one test and one live key, made through the admin API. */
export async function createVerifiedMerchant(admin: AdminApi, name: string): Promise<TestMerchant> {
  const merchant = await admin.createMerchant(name);
  expect(merchant.status).toBe(201);
  expect((await admin.verifyMerchant(merchant.body.id)).status).toBe(200);
  const test = await admin.createKey(merchant.body.id, "test");
  const live = await admin.createKey(merchant.body.id, "live");
  expect(test.status).toBe(201);
  expect(live.status).toBe(201);
  return { id: merchant.body.id, testKey: test.body.key, liveKey: live.body.key, testKeyId: test.body.id, liveKeyId: live.body.id };
}
