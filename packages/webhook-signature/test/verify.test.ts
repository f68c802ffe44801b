import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import {
  buildSignatureHeader,
  generateWebhookSecret,
  signPayload,
  standardWebhookSignature,
  type VerifyResult,
  verifyStandardWebhook,
  verifyWebhook,
} from "../src/index.js";
import { STANDARD_EXAMPLE } from "./fixtures/standard-webhooks-example.js";

const SECRET = generateWebhookSecret();
const OLD_SECRET = generateWebhookSecret();
const NOW = 1_800_000_000;
const BODY = '{"id":"evt_123","event":"session.succeeded","data":{"amount":"12.500"}}';
const at = (now: number) => ({ now: () => now });

function headersFor(o: { body?: string; timestamp?: number; secrets?: string[] } = {}) {
  return {
    "X-Service-Signature": buildSignatureHeader({
      timestamp: o.timestamp ?? NOW,
      body: o.body ?? BODY,
      secrets: o.secrets ?? [SECRET],
    }),
    "X-Service-Webhook-Id": "evt_123",
  };
}

function reason(result: VerifyResult): string {
  return result.ok ? "ok" : result.reason;
}

describe("verifyWebhook", () => {
  it("when the signature and timestamp are right, then it accepts and returns them", () => {
    expect(verifyWebhook(BODY, headersFor(), SECRET, at(NOW))).toEqual({
      ok: true,
      timestamp: NOW,
      webhookId: "evt_123",
    });
  });

  it("when the body is passed as a Buffer, then it verifies like the string", () => {
    expect(verifyWebhook(Buffer.from(BODY), headersFor(), SECRET, at(NOW)).ok).toBe(true);
  });

  it("when the headers are lower case (Node's req.headers) or a fetch Headers, then it finds them", () => {
    const lower = Object.fromEntries(Object.entries(headersFor()).map(([k, v]) => [k.toLowerCase(), v]));
    expect(verifyWebhook(BODY, lower, SECRET, at(NOW)).ok).toBe(true);
    expect(verifyWebhook(BODY, new Headers(headersFor()), SECRET, at(NOW)).ok).toBe(true);
  });

  it("when one byte of the body changed, then no signature matches", () => {
    const tampered = BODY.replace("12.500", "92.500");
    expect(reason(verifyWebhook(tampered, headersFor(), SECRET, at(NOW)))).toBe("no_matching_signature");
  });

  it("when the timestamp in the header was changed, then no signature matches", () => {
    const h = headersFor();
    h["X-Service-Signature"] = h["X-Service-Signature"].replace(`t=${NOW}`, `t=${NOW + 1}`);
    expect(reason(verifyWebhook(BODY, h, SECRET, at(NOW)))).toBe("no_matching_signature");
  });

  it("when signed with another secret, then no signature matches", () => {
    expect(reason(verifyWebhook(BODY, headersFor({ secrets: [OLD_SECRET] }), SECRET, at(NOW)))).toBe(
      "no_matching_signature",
    );
  });

  it("when the header carries new and old signatures, then a receiver holding either secret accepts", () => {
    const h = headersFor({ secrets: [SECRET, OLD_SECRET] });
    expect(verifyWebhook(BODY, h, SECRET, at(NOW)).ok).toBe(true);
    expect(verifyWebhook(BODY, h, OLD_SECRET, at(NOW)).ok).toBe(true);
    expect(reason(verifyWebhook(BODY, h, generateWebhookSecret(), at(NOW)))).toBe("no_matching_signature");
  });

  it("when the receiver holds both secrets during its own rotation, then a message signed with either passes", () => {
    expect(verifyWebhook(BODY, headersFor({ secrets: [OLD_SECRET] }), [SECRET, OLD_SECRET], at(NOW)).ok).toBe(
      true,
    );
  });

  it("when the timestamp is exactly at the default 300 s tolerance, then it is accepted, past or future", () => {
    expect(verifyWebhook(BODY, headersFor(), SECRET, at(NOW + 300)).ok).toBe(true);
    expect(verifyWebhook(BODY, headersFor(), SECRET, at(NOW - 300)).ok).toBe(true);
  });

  it("when the message is older than the tolerance, then it is refused as out of tolerance", () => {
    expect(reason(verifyWebhook(BODY, headersFor(), SECRET, at(NOW + 301)))).toBe(
      "timestamp_out_of_tolerance",
    );
  });

  it("when the message is dated further in the future than the tolerance, then it is refused", () => {
    expect(reason(verifyWebhook(BODY, headersFor(), SECRET, at(NOW - 301)))).toBe(
      "timestamp_out_of_tolerance",
    );
  });

  it("when a tolerance is configured, then it replaces the default", () => {
    expect(reason(verifyWebhook(BODY, headersFor(), SECRET, { ...at(NOW + 61), toleranceSec: 60 }))).toBe(
      "timestamp_out_of_tolerance",
    );
    expect(verifyWebhook(BODY, headersFor(), SECRET, { ...at(NOW + 3000), toleranceSec: 3600 }).ok).toBe(
      true,
    );
  });

  it("when no time source is given, then the system clock is used", () => {
    const fresh = headersFor({ timestamp: Math.floor(Date.now() / 1000) });
    expect(verifyWebhook(BODY, fresh, SECRET).ok).toBe(true);
    expect(reason(verifyWebhook(BODY, headersFor({ timestamp: 1_000_000_000 }), SECRET))).toBe(
      "timestamp_out_of_tolerance",
    );
  });

  it("when the signature header is absent, then the reason is missing_header", () => {
    expect(reason(verifyWebhook(BODY, { "x-service-webhook-id": "evt_1" }, SECRET, at(NOW)))).toBe(
      "missing_header",
    );
    expect(reason(verifyWebhook(BODY, {}, SECRET, at(NOW)))).toBe("missing_header");
  });

  it("when the header is an array (repeated header), then every v1 in it counts", () => {
    const v1 = signPayload({ secret: SECRET, timestamp: NOW, body: BODY });
    const h = { "x-service-signature": [`t=${NOW},v1=${"0".repeat(64)}`, `v1=${v1}`] };
    expect(verifyWebhook(BODY, h, SECRET, at(NOW)).ok).toBe(true);
  });

  it("when unknown schemes sit next to v1, then they are ignored", () => {
    const v1 = signPayload({ secret: SECRET, timestamp: NOW, body: BODY });
    const h = { "x-service-signature": ` t=${NOW} , v0=abc, v1=${v1}, v2=zzz` };
    expect(verifyWebhook(BODY, h, SECRET, at(NOW)).ok).toBe(true);
  });

  const v1 = "a".repeat(64);
  it.each([
    ["empty", ""],
    ["garbage", "not a signature"],
    ["only commas", ",,,"],
    ["no timestamp", `v1=${v1}`],
    ["no v1", `t=${NOW}`],
    ["two timestamps", `t=${NOW},t=${NOW},v1=${v1}`],
    ["timestamp not a number", `t=abc,v1=${v1}`],
    ["negative timestamp", `t=-5,v1=${v1}`],
    ["fractional timestamp", `t=1.5,v1=${v1}`],
    ["huge timestamp", `t=${"9".repeat(400)},v1=${v1}`],
    ["v1 too short", `t=${NOW},v1=abcd`],
    ["v1 not hex", `t=${NOW},v1=${"z".repeat(64)}`],
    ["v1 too long", `t=${NOW},v1=${v1}00`],
    ["empty keys", `=,=${NOW},v1=`],
    ["unicode noise", `t=${NOW},v1=${"é".repeat(64)}`],
  ])("when the header is malformed (%s), then it says so without throwing", (_name, value) => {
    expect(reason(verifyWebhook(BODY, { "x-service-signature": value }, SECRET, at(NOW)))).toBe(
      "malformed_header",
    );
  });

  it.each([
    ["null headers", null],
    ["a string instead of headers", "t=1"],
    ["non-string header values", { "x-service-signature": 42 }],
    ["an array of non-strings", { "x-service-signature": [null, 3] }],
  ])("when given %s, then it reports a missing header and does not throw", (_name, headers) => {
    expect(reason(verifyWebhook(BODY, headers as never, SECRET, at(NOW)))).toBe("missing_header");
  });

  it("when the receiver passes parsed JSON instead of the raw body, then it throws a TypeError that says so", () => {
    expect(() => verifyWebhook(JSON.parse(BODY) as never, headersFor(), SECRET, at(NOW))).toThrow(
      /raw|exactly as received/,
    );
  });

  it.each([
    ["an empty secret", { secret: "" as string | string[], options: at(NOW) }],
    ["no secrets", { secret: [] as string[], options: at(NOW) }],
    ["a negative tolerance", { secret: SECRET, options: { ...at(NOW), toleranceSec: -1 } }],
    ["an infinite tolerance", { secret: SECRET, options: { ...at(NOW), toleranceSec: Infinity } }],
  ])("when configured with %s, then it throws a TypeError", (_name, { secret, options }) => {
    expect(() => verifyWebhook(BODY, headersFor(), secret, options)).toThrow(TypeError);
  });
});

describe("verifyStandardWebhook", () => {
  const STANDARD = STANDARD_EXAMPLE;
  const standardHeaders = {
    "webhook-id": STANDARD.id,
    "webhook-timestamp": String(STANDARD.timestamp),
    "webhook-signature": STANDARD.signature,
  };

  it("when given the Standard Webhooks public example, then it verifies", () => {
    expect(
      verifyStandardWebhook(STANDARD.body, standardHeaders, STANDARD.secret, at(STANDARD.timestamp)),
    ).toEqual({
      ok: true,
      timestamp: STANDARD.timestamp,
      webhookId: STANDARD.id,
    });
  });

  it("when the message id was changed, then no signature matches (the id is signed)", () => {
    const h = { ...standardHeaders, "webhook-id": "msg_other" };
    expect(reason(verifyStandardWebhook(STANDARD.body, h, STANDARD.secret, at(STANDARD.timestamp)))).toBe(
      "no_matching_signature",
    );
  });

  it("when the body was changed, then no signature matches", () => {
    expect(
      reason(
        verifyStandardWebhook(
          '{"test": 2432232315}',
          standardHeaders,
          STANDARD.secret,
          at(STANDARD.timestamp),
        ),
      ),
    ).toBe("no_matching_signature");
  });

  it("when signed with two secrets, then either secret verifies", () => {
    const h = {
      "webhook-id": "evt_9",
      "webhook-timestamp": String(NOW),
      "webhook-signature": standardWebhookSignature({
        id: "evt_9",
        timestamp: NOW,
        body: BODY,
        secrets: [SECRET, OLD_SECRET],
      }),
    };
    expect(verifyStandardWebhook(Buffer.from(BODY), h, OLD_SECRET, at(NOW)).ok).toBe(true);
    expect(verifyStandardWebhook(BODY, h, SECRET, at(NOW)).ok).toBe(true);
  });

  it("when outside the tolerance, past or future, then it is refused", () => {
    expect(
      reason(
        verifyStandardWebhook(STANDARD.body, standardHeaders, STANDARD.secret, at(STANDARD.timestamp + 301)),
      ),
    ).toBe("timestamp_out_of_tolerance");
    expect(
      reason(
        verifyStandardWebhook(STANDARD.body, standardHeaders, STANDARD.secret, at(STANDARD.timestamp - 301)),
      ),
    ).toBe("timestamp_out_of_tolerance");
  });

  it.each([
    ["no id", { "webhook-timestamp": "1", "webhook-signature": STANDARD.signature }, "missing_header"],
    ["no signature", { "webhook-id": "a", "webhook-timestamp": "1" }, "missing_header"],
    ["bad timestamp", { ...standardHeaders, "webhook-timestamp": "soon" }, "malformed_header"],
    ["unknown version only", { ...standardHeaders, "webhook-signature": "v2,abc" }, "malformed_header"],
    ["signature not base64", { ...standardHeaders, "webhook-signature": "v1,!!!" }, "malformed_header"],
    ["two different ids", { ...standardHeaders, "webhook-id": ["a", "b"] }, "malformed_header"],
  ])("when the headers have %s, then it reports it without throwing", (_name, headers, expected) => {
    expect(
      reason(verifyStandardWebhook(STANDARD.body, headers, STANDARD.secret, at(STANDARD.timestamp))),
    ).toBe(expected);
  });
});
