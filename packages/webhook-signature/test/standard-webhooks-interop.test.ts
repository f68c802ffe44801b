import { Buffer } from "node:buffer";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { describe, expect, it } from "vitest";
import {
  generateWebhookSecret,
  standardWebhookSignature,
  verifyStandardWebhook,
  Webhook,
  WebhookVerificationError,
} from "../src/index.js";

// Interop in both directions with the two published Standard Webhooks libraries (pinned
// devDependencies). They read the real clock, so every message here is dated from Date.now().

const BODY = JSON.stringify({
  id: "evt_01JD6QZ3V8",
  event: "session.succeeded",
  created_at: "2026-11-23T21:00:00.000Z",
  data: { session_id: "ses_1", amount: "12.50", currency: "EUR", note: "naïve café ✓" },
});
const EVENT = JSON.parse(BODY) as unknown;
const nowSec = () => Math.floor(Date.now() / 1000);

interface Library {
  name: string;
  make: (secret: string) => {
    sign(id: string, at: Date, body: string | Buffer): string;
    verify(body: string | Buffer, headers: Record<string, string>): unknown;
  };
}
const LIBRARIES: Library[] = [
  { name: "standardwebhooks", make: (secret) => new StandardWebhook(secret) },
  { name: "svix", make: (secret) => new SvixWebhook(secret) },
];

function headers(id: string, timestamp: number, signature: string): Record<string, string> {
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": signature };
}

function theirVerdict(run: () => unknown): "verified" | "refused" {
  try {
    run();
    return "verified";
  } catch (error) {
    // Both libraries throw their WebhookVerificationError for every refusal we provoke here.
    expect((error as Error).name).toBe("WebhookVerificationError");
    return "refused";
  }
}

function ourReason(run: () => unknown): string {
  try {
    run();
    return "verified";
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
}

describe.each(LIBRARIES)("interop with $name", ({ name, make }) => {
  const secret = generateWebhookSecret();

  describe(`${name} verifies what we sign`, () => {
    it("when signed by our Webhook class or by the gateway's header function, then it verifies", () => {
      const t = nowSec();
      const byClass = new Webhook(secret).sign("msg_1", t, BODY);
      const byFunction = standardWebhookSignature({
        id: "msg_1",
        timestamp: t,
        body: Buffer.from(BODY),
        secrets: [secret],
      });
      expect(byClass).toBe(byFunction);
      expect(theirVerdict(() => make(secret).verify(BODY, headers("msg_1", t, byClass)))).toBe("verified");
      expect(
        theirVerdict(() => make(secret).verify(Buffer.from(BODY), headers("msg_1", t, byFunction))),
      ).toBe("verified");
      // standardwebhooks also hands back the parsed event (svix 2 returns nothing).
      if (name === "standardwebhooks")
        expect(make(secret).verify(BODY, headers("msg_1", t, byClass))).toEqual(EVENT);
    });

    it("when we sign during a rotation (two v1 entries), then a receiver holding either secret verifies and a third does not", () => {
      const next = generateWebhookSecret();
      const t = nowSec();
      const signature = new Webhook([next, secret]).sign("msg_2", t, BODY);
      expect(signature.split(" ")).toHaveLength(2);
      expect(theirVerdict(() => make(secret).verify(BODY, headers("msg_2", t, signature)))).toBe("verified");
      expect(theirVerdict(() => make(next).verify(BODY, headers("msg_2", t, signature)))).toBe("verified");
      expect(
        theirVerdict(() => make(generateWebhookSecret()).verify(BODY, headers("msg_2", t, signature))),
      ).toBe("refused");
    });

    it("when the secret is wrong, the body tampered, the id swapped or the time outside 5 minutes, then it refuses", () => {
      const t = nowSec();
      const ours = new Webhook(secret);
      const good = headers("msg_3", t, ours.sign("msg_3", t, BODY));
      expect(theirVerdict(() => make(secret).verify(BODY, good))).toBe("verified");
      expect(theirVerdict(() => make(generateWebhookSecret()).verify(BODY, good))).toBe("refused");
      expect(theirVerdict(() => make(secret).verify(BODY.replace("12.50", "92.50"), good))).toBe("refused");
      expect(theirVerdict(() => make(secret).verify(BODY, { ...good, "webhook-id": "msg_other" }))).toBe(
        "refused",
      );
      for (const skew of [-600, 600]) {
        const old = headers("msg_4", t + skew, ours.sign("msg_4", t + skew, BODY));
        expect(theirVerdict(() => make(secret).verify(BODY, old))).toBe("refused");
      }
    });
  });

  describe(`we verify what ${name} signs`, () => {
    it("when signed by them, then our Webhook class returns the event and our function accepts it", () => {
      const t = nowSec();
      const signature = make(secret).sign("msg_5", new Date(t * 1000), BODY);
      expect(signature).toBe(new Webhook(secret).sign("msg_5", t, BODY));
      expect(new Webhook(secret).verify(BODY, headers("msg_5", t, signature))).toEqual(EVENT);
      expect(
        new Webhook(secret).verify(Buffer.from(BODY), new Headers(headers("msg_5", t, signature))),
      ).toEqual(EVENT);
      expect(verifyStandardWebhook(BODY, headers("msg_5", t, signature), secret)).toMatchObject({
        ok: true,
        webhookId: "msg_5",
      });
    });

    it("when their header carries several v1 signatures (a sender rotating), then either of our secrets verifies", () => {
      const previous = generateWebhookSecret();
      const t = nowSec();
      const at = new Date(t * 1000);
      const rotating = `${make(secret).sign("msg_6", at, BODY)} ${make(previous).sign("msg_6", at, BODY)}`;
      expect(ourReason(() => new Webhook(secret).verify(BODY, headers("msg_6", t, rotating)))).toBe(
        "verified",
      );
      expect(ourReason(() => new Webhook(previous).verify(BODY, headers("msg_6", t, rotating)))).toBe(
        "verified",
      );
      expect(
        ourReason(() => new Webhook(generateWebhookSecret()).verify(BODY, headers("msg_6", t, rotating))),
      ).toBe("no_matching_signature");
    });

    it("when we hold [current, previous] and they sign with the previous one only, then we verify", () => {
      const current = generateWebhookSecret();
      const t = nowSec();
      const signature = make(secret).sign("msg_7", new Date(t * 1000), BODY);
      expect(new Webhook([current, secret]).verify(BODY, headers("msg_7", t, signature))).toEqual(EVENT);
    });

    it("when the secret is wrong, the body tampered or the time outside the tolerance, then we refuse with the reason", () => {
      const t = nowSec();
      const good = headers("msg_8", t, make(secret).sign("msg_8", new Date(t * 1000), BODY));
      expect(ourReason(() => new Webhook(generateWebhookSecret()).verify(BODY, good))).toBe(
        "no_matching_signature",
      );
      expect(ourReason(() => new Webhook(secret).verify(BODY.replace("EUR", "USD"), good))).toBe(
        "no_matching_signature",
      );
      for (const skew of [-600, 600]) {
        const at = new Date((t + skew) * 1000);
        const skewed = headers("msg_9", t + skew, make(secret).sign("msg_9", at, BODY));
        expect(ourReason(() => new Webhook(secret).verify(BODY, skewed))).toBe("timestamp_out_of_tolerance");
        // The same message inside a wider tolerance the receiver chose is genuine.
        expect(new Webhook(secret, { toleranceSec: 900 }).verify(BODY, skewed)).toEqual(EVENT);
      }
    });
  });
});

describe("svix-branded headers", () => {
  it("when svix signs for its own svix-* headers, then the same signature verifies under webhook-* with us", () => {
    const secret = generateWebhookSecret();
    const t = nowSec();
    const signature = new SvixWebhook(secret).sign("msg_10", new Date(t * 1000), BODY);
    const svixHeaders = { "svix-id": "msg_10", "svix-timestamp": String(t), "svix-signature": signature };
    expect(theirVerdict(() => new SvixWebhook(secret).verify(BODY, svixHeaders))).toBe("verified");
    expect(new Webhook(secret).verify(BODY, headers("msg_10", t, signature))).toEqual(EVENT);
  });
});
