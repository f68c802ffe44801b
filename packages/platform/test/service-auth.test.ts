import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  callerTargetPairs,
  generateServiceAuthKeys,
  mayCall,
  mintServiceToken,
  parseServiceAuthKeys,
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
