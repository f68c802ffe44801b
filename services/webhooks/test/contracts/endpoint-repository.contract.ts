import { generateWebhookSecret } from "@gateway/webhook-signature";
import { beforeAll, describe, expect, it } from "vitest";
import type { EndpointRepository } from "../../src/app/ports.js";
import { newScope } from "../support/fixtures.js";

const T0 = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
const later = (ms: number) => new Date(T0.getTime() + ms);
const URL_A = "https://shop.example.tn/hooks";
const URL_B = "https://shop.example.tn/v2/hooks";

/** The contract of EndpointRepository, for the in-memory and the Mongo adapter. */
export function endpointRepositoryContract(adapter: string, open: () => Promise<EndpointRepository>): void {
  describe(`EndpointRepository contract: ${adapter}`, () => {
    let repo: EndpointRepository;
    beforeAll(async () => {
      repo = await open();
    });

    it("when the first URL is set, then the endpoint is created with the given secret; later sets keep it", async () => {
      const scope = newScope();
      expect(await repo.find(scope)).toBeUndefined();
      const secret = generateWebhookSecret();
      const first = await repo.setUrl(scope, URL_A, secret, T0);
      expect(first.secretCreated).toBe(true);
      expect(first.endpoint).toEqual({ scope, url: URL_A, secret, createdAt: T0, updatedAt: T0 });
      const second = await repo.setUrl(scope, URL_B, generateWebhookSecret(), later(1000));
      expect(second.secretCreated).toBe(false);
      expect(second.endpoint).toMatchObject({ url: URL_B, secret, createdAt: T0, updatedAt: later(1000) });
      expect(await repo.find(scope)).toEqual(second.endpoint);
    });

    it("when subscriptions are set, then they are stored (creating the endpoint with a secret if needed) and kept by a URL change", async () => {
      const scope = newScope();
      const secret = generateWebhookSecret();
      const created = await repo.setSubscriptions(scope, ["refund.*", "session.succeeded"], secret, T0);
      expect(created).toEqual({
        scope,
        secret,
        enabledEvents: ["refund.*", "session.succeeded"],
        createdAt: T0,
        updatedAt: T0,
      });
      await repo.setUrl(scope, URL_A, generateWebhookSecret(), later(1));
      const changed = await repo.setSubscriptions(
        scope,
        ["session.failed"],
        generateWebhookSecret(),
        later(2),
      );
      expect(changed).toMatchObject({ url: URL_A, secret, enabledEvents: ["session.failed"] });
      expect(await repo.find(scope)).toEqual(changed);
      expect((await repo.find(newScope()))?.enabledEvents).toBeUndefined();
    });

    it("when two first sets race, then one secret is created and both see it", async () => {
      const scope = newScope();
      const results = await Promise.all([
        repo.setUrl(scope, URL_A, generateWebhookSecret(), T0),
        repo.setUrl(scope, URL_A, generateWebhookSecret(), T0),
      ]);
      expect(results.filter((r) => r.secretCreated)).toHaveLength(1);
      expect(results[0].endpoint.secret).toBe(results[1].endpoint.secret);
    });

    it("when a secret is ensured, then one is created without a URL once; racing callers and later calls get that one", async () => {
      const scope = newScope();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => repo.ensureSecret(scope, generateWebhookSecret(), T0)),
      );
      expect(new Set(results.map((e) => e.secret)).size).toBe(1);
      expect(results[0]).toEqual({ scope, secret: results[0]!.secret, createdAt: T0, updatedAt: T0 });
      expect(await repo.ensureSecret(scope, generateWebhookSecret(), later(1000))).toEqual(results[0]);
      expect(await repo.find(scope)).toEqual(results[0]);
      // A URL set later keeps that secret.
      const set = await repo.setUrl(scope, URL_A, generateWebhookSecret(), later(2000));
      expect(set.secretCreated).toBe(false);
      expect(set.endpoint.secret).toBe(results[0]!.secret);
    });

    it("when a secret is ensured for an endpoint that exists, then it is returned unchanged", async () => {
      const scope = newScope();
      const secret = generateWebhookSecret();
      const { endpoint } = await repo.setUrl(scope, URL_A, secret, T0);
      expect(await repo.ensureSecret(scope, generateWebhookSecret(), later(1000))).toEqual(endpoint);
    });

    it("when the secret is rotated, then the old one is kept as previous until the given time", async () => {
      const scope = newScope();
      const original = generateWebhookSecret();
      await repo.setUrl(scope, URL_A, original, T0);
      const next = generateWebhookSecret();
      const rotated = await repo.rotateSecret(scope, next, later(86_400_000), later(10));
      expect(rotated.rotated).toBe(true);
      expect(rotated.endpoint).toMatchObject({
        url: URL_A,
        secret: next,
        previousSecret: original,
        previousSecretExpiresAt: later(86_400_000),
      });
      const third = generateWebhookSecret();
      await repo.rotateSecret(scope, third, later(90_000_000), later(20));
      // Only one previous secret is kept: the one replaced last.
      expect(await repo.find(scope)).toMatchObject({
        secret: third,
        previousSecret: next,
        previousSecretExpiresAt: later(90_000_000),
      });
    });

    it("when a secret is rotated before any URL was set, then the first secret is created without a URL", async () => {
      const scope = newScope();
      const secret = generateWebhookSecret();
      const result = await repo.rotateSecret(scope, secret, later(1), T0);
      expect(result.rotated).toBe(false);
      expect(result.endpoint).toEqual({ scope, secret, createdAt: T0, updatedAt: T0 });
      const set = await repo.setUrl(scope, URL_A, generateWebhookSecret(), later(5));
      expect(set.secretCreated).toBe(false);
      expect(set.endpoint.secret).toBe(secret);
    });

    it("when rotations race, then they apply one after the other and every replaced secret is handed on once", async () => {
      const scope = newScope();
      const original = generateWebhookSecret();
      await repo.setUrl(scope, URL_A, original, T0);
      const secrets = [
        generateWebhookSecret(),
        generateWebhookSecret(),
        generateWebhookSecret(),
        generateWebhookSecret(),
      ];
      const results = await Promise.all(
        secrets.map((s, i) => repo.rotateSecret(scope, s, later(1000 + i), later(i))),
      );
      const stored = await repo.find(scope);
      // As if run in some order: each rotation replaced a different secret, the last one is current.
      const replaced = results.map((r) => r.endpoint.previousSecret).sort();
      const expected = [original, ...secrets.filter((s) => s !== stored?.secret)].sort();
      expect(replaced).toEqual(expected);
      expect(results.every((r) => r.rotated)).toBe(true);
    });

    it("when the endpoint is disabled for its URL, then SetEndpoint enables it again", async () => {
      const scope = newScope();
      await repo.setUrl(scope, URL_A, generateWebhookSecret(), T0);
      expect(await repo.disable(scope, URL_B, later(1), "410")).toBe(false);
      expect(await repo.disable(scope, URL_A, later(2), "Receiver answered HTTP 410 Gone")).toBe(true);
      expect(await repo.disable(scope, URL_A, later(3), "again")).toBe(false);
      expect(await repo.find(scope)).toMatchObject({
        disabledAt: later(2),
        disabledReason: "Receiver answered HTTP 410 Gone",
      });
      const reset = await repo.setUrl(scope, URL_A, generateWebhookSecret(), later(4));
      expect(reset.endpoint.disabledAt).toBeUndefined();
      expect(reset.endpoint.disabledReason).toBeUndefined();
    });

    it("when the modes differ, then each has its own endpoint and secret", async () => {
      const test = newScope(false);
      const live = { ...test, livemode: true };
      await repo.setUrl(test, URL_A, generateWebhookSecret(), T0);
      expect(await repo.find(live)).toBeUndefined();
      await repo.setUrl(live, URL_B, generateWebhookSecret(), T0);
      expect((await repo.find(test))?.secret).not.toBe((await repo.find(live))?.secret);
      expect(await repo.disable(live, URL_A, T0, "x")).toBe(false);
    });
  });
}
