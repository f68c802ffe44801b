import { randomBytes } from "node:crypto";
import { createContextValues, type Interceptor, type UnaryRequest } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import {
  callerTargetPairs,
  generateServiceAuthKeys,
  ManualClock,
  mayCall,
  mintServiceToken,
  parseServiceAuthKeys,
  serviceTokenInterceptor,
  serviceTokenVerifier,
  verifyServiceToken,
} from "../src/index.js";

const key = () => randomBytes(32);
const b64 = (k: Buffer) => k.toString("base64url");

describe("service auth keys", () => {
  it("when keys are generated, then every process gets exactly the pairs it is part of, and they parse", () => {
    const keys = generateServiceAuthKeys();
    const sessions = parseServiceAuthKeys("sessions")(keys.sessions);
    expect([...sessions.outgoing.keys()]).toEqual(["accounts"]);
    expect([...sessions.incoming.keys()].sort()).toEqual(["edge", "refunds"]);
    const edge = parseServiceAuthKeys("edge")(keys.edge);
    expect([...edge.outgoing.keys()].sort()).toEqual(["accounts", "refunds", "sessions", "webhooks"]);
    expect(edge.incoming.size).toBe(0);
    // The same pair key on both sides.
    expect(edge.outgoing.get("sessions")!.equals(sessions.incoming.get("edge")!)).toBe(true);
    expect(callerTargetPairs()).toHaveLength(7);
  });

  it("when an entry is malformed, short, foreign or repeated, then parsing fails without echoing key material", () => {
    const secret = b64(key());
    const parseAs = (raw: string) => () => parseServiceAuthKeys("sessions")(raw);
    expect(parseAs(`edge-sessions=${secret}`)).toThrow(/entry 1 is not caller>target/);
    expect(parseAs(`edge>sessions=${b64(randomBytes(16))}`)).toThrow(/shorter than 32 bytes/);
    expect(parseAs(`edge>accounts=${secret}`)).toThrow(/does not concern sessions/);
    expect(parseAs(`edge>sessions=${secret},edge>sessions=${secret}`)).toThrow(/given twice/);
    expect(parseAs(`bank>sessions=${secret}`)).toThrow(/unknown service/);
    try {
      parseAs(`edge>accounts=${secret}`)();
    } catch (err) {
      expect((err as Error).message).not.toContain(secret);
    }
  });
});

describe("service tokens", () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);
  const edgeKey = key();
  const keyOf = (caller: string) => (caller === "edge" ? edgeKey : undefined);

  it("when a token is minted for an audience, then that audience accepts it within its lifetime", () => {
    const token = mintServiceToken({ caller: "edge", audience: "sessions", key: edgeKey, nowMs: now });
    expect(verifyServiceToken(token, { audience: "sessions", keyOf, nowMs: now + 59_000 })).toEqual({
      ok: true,
      caller: "edge",
    });
  });

  it("when the audience, key, signature, time or shape is wrong, then the token is refused with the reason", () => {
    const token = mintServiceToken({ caller: "edge", audience: "sessions", key: edgeKey, nowMs: now });
    const check = (t: string, o: { audience?: string; nowMs?: number } = {}) =>
      verifyServiceToken(t, { audience: o.audience ?? "sessions", keyOf, nowMs: o.nowMs ?? now });
    expect(check(token, { audience: "accounts" })).toMatchObject({
      ok: false,
      why: "token for another service",
    });
    expect(check(token, { nowMs: now + 120_000 })).toMatchObject({ ok: false, why: "expired token" });
    expect(check(token, { nowMs: now - 120_000 })).toMatchObject({ ok: false, why: "token not valid now" });
    expect(
      check(mintServiceToken({ caller: "edge", audience: "sessions", key: key(), nowMs: now })),
    ).toMatchObject({ ok: false, why: "bad signature" });
    expect(
      check(mintServiceToken({ caller: "refunds", audience: "sessions", key: edgeKey, nowMs: now })),
    ).toMatchObject({ ok: false, why: "unknown caller" });
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), exp: 4_000_000_000 }),
    ).toString("base64url");
    expect(check(`${header}.${forged}.${signature}`)).toMatchObject({ ok: false, why: "bad signature" });
    expect(check("a.b")).toMatchObject({ ok: false, why: "malformed token" });
    expect(check(`${Buffer.from('{"alg":"none"}').toString("base64url")}.${payload}.`)).toMatchObject({
      ok: false,
      why: "unsupported token header",
    });
  });
});

describe("a service's token verifier", () => {
  const now = Date.UTC(2026, 10, 23, 12, 0, 0);

  it("when a verified token comes again, then it is answered without signing again, and its times are still checked", () => {
    const edgeKey = key();
    const verify = serviceTokenVerifier({ audience: "sessions", keyOf: () => edgeKey });
    const token = mintServiceToken({ caller: "edge", audience: "sessions", key: edgeKey, nowMs: now });
    expect(verify(token, now)).toEqual({ ok: true, caller: "edge" });
    // Changed in place, the key no longer matches the signature: only a new HMAC would notice.
    edgeKey.fill(0);
    expect(verify(token, now + 1_000)).toEqual({ ok: true, caller: "edge" });
    expect(verify(token, now + 120_000)).toMatchObject({ ok: false, why: "expired token" });
    expect(verify(token, now - 120_000)).toMatchObject({ ok: false, why: "token not valid now" });
  });

  it("when the caller's key is replaced, then a remembered token is checked in full again and refused", () => {
    let edgeKey = key();
    const verify = serviceTokenVerifier({ audience: "sessions", keyOf: () => edgeKey });
    const token = mintServiceToken({ caller: "edge", audience: "sessions", key: edgeKey, nowMs: now });
    expect(verify(token, now)).toEqual({ ok: true, caller: "edge" });
    edgeKey = key();
    expect(verify(token, now)).toMatchObject({ ok: false, why: "bad signature" });
  });

  it("when a token is refused, then it is refused again for the same reason: nothing refused is remembered", () => {
    const edgeKey = key();
    const verify = serviceTokenVerifier({ audience: "sessions", keyOf: () => edgeKey });
    const foreign = mintServiceToken({ caller: "edge", audience: "accounts", key: edgeKey, nowMs: now });
    const forged = mintServiceToken({ caller: "edge", audience: "sessions", key: key(), nowMs: now });
    for (let i = 0; i < 2; i++) {
      expect(verify(foreign, now)).toMatchObject({ ok: false, why: "token for another service" });
      expect(verify(forged, now)).toMatchObject({ ok: false, why: "bad signature" });
    }
  });

  it("when more tokens than it remembers have come, then it still answers for each as a full check would", () => {
    const edgeKey = key();
    const keyOf = () => edgeKey;
    const verify = serviceTokenVerifier({ audience: "sessions", keyOf });
    const tokens = Array.from({ length: 600 }, (_, i) =>
      mintServiceToken({ caller: "edge", audience: "sessions", key: edgeKey, nowMs: now + i * 1_000 }),
    );
    const at = now + 300_000;
    const answers = [...tokens, ...tokens].map((token) => verify(token, at));
    expect(answers).toEqual(
      [...tokens, ...tokens].map((token) =>
        verifyServiceToken(token, { audience: "sessions", keyOf, nowMs: at }),
      ),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(2 * 121);
  });
});

describe("the client's token interceptor", () => {
  /** The authorization header the interceptor puts on one call at the clock's time. */
  async function headerOfCall(interceptor: Interceptor): Promise<string | null> {
    let seen: string | null = null;
    const req = { header: new Headers(), contextValues: createContextValues() } as unknown as UnaryRequest;
    await interceptor(async (r) => {
      seen = r.header.get("authorization");
      return {} as never;
    })(req);
    return seen;
  }

  it("when calls are made within one second, then they carry the same token, and a new one the next second", async () => {
    const sessionsKey = key();
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 12, 0, 0));
    const keys = {
      self: "edge" as const,
      outgoing: new Map([["sessions", sessionsKey]]),
      incoming: new Map(),
    };
    const interceptor = serviceTokenInterceptor(keys, "sessions", clock);
    const keyOf = () => sessionsKey;
    const verifies = (header: string | null) =>
      verifyServiceToken(header?.replace(/^Bearer /, "") ?? "", {
        audience: "sessions",
        keyOf,
        nowMs: clock.now().getTime(),
      }).ok;
    const first = await headerOfCall(interceptor);
    expect(verifies(first)).toBe(true);
    // Changed in place, the key would sign differently: the same header shows nothing was signed.
    sessionsKey.fill(7);
    clock.advance(999);
    expect(await headerOfCall(interceptor)).toBe(first);
    clock.advance(1);
    const next = await headerOfCall(interceptor);
    expect(next).not.toBe(first);
    expect(verifies(next)).toBe(true);
  });
});

describe("caller permissions", () => {
  it("when the edge calls anything, refunds reads sessions, sessions reads accounts, then those are allowed and nothing else", () => {
    expect(mayCall("sessions", "edge", "CancelSession")).toBe(true);
    expect(mayCall("sessions", "refunds", "GetSession")).toBe(true);
    expect(mayCall("sessions", "refunds", "CancelSession")).toBe(false);
    expect(mayCall("sessions", "webhooks", "GetSession")).toBe(false);
    expect(mayCall("accounts", "sessions", "GetExchangeRate")).toBe(true);
    expect(mayCall("accounts", "sessions", "CreateApiKey")).toBe(false);
    expect(mayCall("accounts", "refunds", "ResolveTerminalCredentials")).toBe(true);
    expect(mayCall("accounts", "refunds", "GetMerchant")).toBe(false);
    expect(mayCall("refunds", "sessions", "CreateRefund")).toBe(false);
    expect(mayCall("webhooks", "refunds", "ListDeliveries")).toBe(false);
  });
});
