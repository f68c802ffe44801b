import { expect } from "vitest";
import type { AdminApi } from "./http.js";

export interface TestMerchant {
  id: string;
  testKey: string;
  liveKey: string;
  testKeyId: string;
  liveKeyId: string;
}

/**
 * Terminals for merchants whose tests never pay: a create needs an active terminal in its mode
 * (422 no-terminal-configured otherwise), but nothing here is ever called.
 */
const PLACEHOLDER_TERMINALS = {
  test: {
    base_url: "http://127.0.0.1:9/epg/rest",
    username: "placeholder",
    password: "placeholder",
    active: true,
  },
  live: {
    base_url: "https://acquirer.invalid/epg/rest",
    username: "placeholder",
    password: "placeholder",
    active: true,
  },
} as const;

/**
 * A verified merchant with one test and one live key, made through the admin API, with a
 * placeholder terminal in each mode unless `withTerminals` is false.
 */
export async function createVerifiedMerchant(
  admin: AdminApi,
  name: string,
  withTerminals = true,
): Promise<TestMerchant> {
  const merchant = await admin.createMerchant(name);
  expect(merchant.status).toBe(201);
  expect((await admin.verifyMerchant(merchant.body.id)).status).toBe(200);
  const test = await admin.createKey(merchant.body.id, "test");
  const live = await admin.createKey(merchant.body.id, "live");
  expect(test.status).toBe(201);
  expect(live.status).toBe(201);
  if (withTerminals) {
    for (const mode of ["test", "live"] as const) {
      const set = await admin.setTerminal(merchant.body.id, mode, PLACEHOLDER_TERMINALS[mode]);
      expect(set.status, set.text).toBe(200);
    }
  }
  return {
    id: merchant.body.id,
    testKey: test.body.key,
    liveKey: live.body.key,
    testKeyId: test.body.id,
    liveKeyId: live.body.id,
  };
}
