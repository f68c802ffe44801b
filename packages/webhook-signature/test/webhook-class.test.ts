import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import {
  generateWebhookSecret,
  Webhook,
  WebhookVerificationError,
  type WebhookVerificationFailure,
} from "../src/index.js";
import { STANDARD_EXAMPLE } from "./fixtures/standard-webhooks-example.js";

const STANDARD = STANDARD_EXAMPLE;
const at = (now: number) => ({ now: () => now });
const headers = (signature = STANDARD.signature, id = STANDARD.id, timestamp = STANDARD.timestamp) => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestamp),
  "webhook-signature": signature,
});

function failure(run: () => unknown): WebhookVerificationFailure | "passed" {
  try {
    run();
    return "passed";
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

describe("Webhook", () => {
  it("when signing the public example, then it reproduces the published signature", () => {
    const wh = new Webhook(STANDARD.secret);
    expect(wh.sign(STANDARD.id, new Date(STANDARD.timestamp * 1000), STANDARD.body)).toBe(STANDARD.signature);
    expect(wh.sign(STANDARD.id, STANDARD.timestamp, Buffer.from(STANDARD.body))).toBe(STANDARD.signature);
  });

  it("when the example is verified, then the parsed event comes back", () => {
    const wh = new Webhook(STANDARD.secret, at(STANDARD.timestamp));
    expect(wh.verify(STANDARD.body, headers())).toEqual({ test: 2432232314 });
    expect(wh.verify(new TextEncoder().encode(STANDARD.body), new Headers(headers()))).toEqual({
      test: 2432232314,
    });
  });

  it("when the secret has no whsec_ prefix, then it is the same key", () => {
    const wh = new Webhook(STANDARD.secret.slice("whsec_".length), at(STANDARD.timestamp));
    expect(wh.verify(STANDARD.body, headers())).toEqual({ test: 2432232314 });
  });

  it("when anything is wrong, then it throws a WebhookVerificationError whose reason says what", () => {
    const wh = new Webhook(STANDARD.secret, at(STANDARD.timestamp));
    expect(failure(() => wh.verify('{"test": 2432232315}', headers()))).toBe("no_matching_signature");
    expect(
      failure(() =>
        new Webhook(generateWebhookSecret(), at(STANDARD.timestamp)).verify(STANDARD.body, headers()),
      ),
    ).toBe("no_matching_signature");
    expect(failure(() => wh.verify(STANDARD.body, { "webhook-id": STANDARD.id }))).toBe("missing_header");
    expect(failure(() => wh.verify(STANDARD.body, headers("v1,short")))).toBe("malformed_header");
    const late = new Webhook(STANDARD.secret, at(STANDARD.timestamp + 301));
    expect(failure(() => late.verify(STANDARD.body, headers()))).toBe("timestamp_out_of_tolerance");
  });

  it("when thrown, then the error has the Standard Webhooks name and a readable message", () => {
    const wh = new Webhook(STANDARD.secret, at(STANDARD.timestamp));
    let caught: unknown;
    try {
      wh.verify("{}", headers());
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).name).toBe("WebhookVerificationError");
    expect((caught as Error).message).toMatch(/signature/);
  });

  it("when a genuine signature covers a body that is not JSON, then the reason is invalid_json", () => {
    const secret = generateWebhookSecret();
    const body = Uint8Array.of(0x7b, 0xff, 0x7d);
    const wh = new Webhook(secret, at(1_800_000_000));
    const signed = headers(wh.sign("evt_1", 1_800_000_000, body), "evt_1", 1_800_000_000);
    expect(failure(() => wh.verify(body, signed))).toBe("invalid_json");
    expect(
      failure(() =>
        wh.verify("not json", headers(wh.sign("evt_1", 1_800_000_000, "not json"), "evt_1", 1_800_000_000)),
      ),
    ).toBe("invalid_json");
  });

  it("when holding two secrets, then it signs with both and verifies a message signed with either", () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    const both = new Webhook([current, previous], at(1_800_000_000));
    const signature = both.sign("evt_2", 1_800_000_000, "{}");
    expect(signature.split(" ")).toHaveLength(2);
    const byPrevious = new Webhook(previous).sign("evt_2", 1_800_000_000, "{}");
    expect(both.verify("{}", headers(byPrevious, "evt_2", 1_800_000_000))).toEqual({});
  });

  it.each([
    ["an empty secret", () => new Webhook("")],
    ["no secrets", () => new Webhook([])],
    ["a secret that is not base64", () => new Webhook("whsec_not base64!")],
    ["an invalid Date", () => new Webhook(STANDARD.secret).sign("m", new Date(Number.NaN), "{}")],
    [
      "parsed JSON instead of the raw body",
      () => new Webhook(STANDARD.secret).verify({} as never, headers()),
    ],
  ])("when given %s, then it throws a TypeError (a bug in the caller, not a bad request)", (_name, run) => {
    expect(run).toThrow(TypeError);
  });
});
