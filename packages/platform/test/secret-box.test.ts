import { describe, expect, it } from "vitest";
import {
  createSecretBox,
  generateSecretsKey,
  parseSecretsKey,
  type SealedSecret,
  SecretUnreadableError,
  secretsKeyId,
} from "../src/secret-box.js";

const PASSWORD = "terminal-pässword 🔐";

function flipFirstByte(base64: string): string {
  const bytes = Buffer.from(base64, "base64");
  bytes[0] = bytes[0]! ^ 0x01;
  return bytes.toString("base64");
}

function openError(open: () => string): SecretUnreadableError {
  let caught: unknown;
  try {
    open();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(SecretUnreadableError);
  expect((caught as Error).message).not.toContain(PASSWORD);
  return caught as SecretUnreadableError;
}

describe("secret box (AES-256-GCM)", () => {
  const key = generateSecretsKey();
  const box = createSecretBox(key);

  it("when a secret is sealed, then it opens to the same text and the sealed form holds no trace of it", () => {
    const sealed = box.seal(PASSWORD, "ctx");
    expect(box.open(sealed, "ctx")).toBe(PASSWORD);
    expect(sealed.keyId).toBe(box.keyId);
    expect(Buffer.from(sealed.iv, "base64")).toHaveLength(12);
    expect(Buffer.from(sealed.tag, "base64")).toHaveLength(16);
    expect(JSON.stringify(sealed)).not.toContain(PASSWORD);
    expect(Buffer.from(sealed.ciphertext, "base64").toString("utf8")).not.toContain("terminal");
  });

  it("when the same secret is sealed twice, then a fresh IV makes the two sealed forms differ", () => {
    const a = box.seal(PASSWORD);
    const b = box.seal(PASSWORD);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(box.open(a)).toBe(PASSWORD);
    expect(box.open(b)).toBe(PASSWORD);
  });

  it("when an empty secret is sealed, then it opens to the empty string", () => {
    expect(box.open(box.seal(""))).toBe("");
  });

  it.each<[string, (s: SealedSecret) => SealedSecret]>([
    ["the ciphertext", (s) => ({ ...s, ciphertext: flipFirstByte(s.ciphertext) })],
    ["the tag", (s) => ({ ...s, tag: flipFirstByte(s.tag) })],
    ["the IV", (s) => ({ ...s, iv: flipFirstByte(s.iv) })],
    [
      "the ciphertext's length",
      (s) => ({ ...s, ciphertext: Buffer.from(s.ciphertext, "base64").subarray(1).toString("base64") }),
    ],
  ])("when %s is tampered with, then opening fails instead of giving wrong text", (_what, tamper) => {
    const sealed = box.seal(PASSWORD, "ctx");
    expect(openError(() => box.open(tamper(sealed), "ctx")).message).toMatch(/failed authentication/);
  });

  it("when the IV or tag has the wrong length, then opening fails as malformed", () => {
    const sealed = box.seal(PASSWORD);
    expect(openError(() => box.open({ ...sealed, iv: Buffer.alloc(8).toString("base64") })).message).toMatch(
      /malformed/,
    );
    expect(openError(() => box.open({ ...sealed, tag: Buffer.alloc(4).toString("base64") })).message).toMatch(
      /malformed/,
    );
  });

  it("when the context differs from the one sealed for, then opening fails", () => {
    const sealed = box.seal(PASSWORD, "terminal-password:mer_a:test");
    openError(() => box.open(sealed, "terminal-password:mer_b:test"));
    openError(() => box.open(sealed));
  });

  it("when a box with another key opens it, then it fails naming both key ids and pointing at the configuration", () => {
    const sealed = box.seal(PASSWORD);
    const other = createSecretBox(generateSecretsKey());
    const err = openError(() => other.open(sealed));
    expect(err.message).toContain(box.keyId);
    expect(err.message).toContain(other.keyId);
    expect(err.message).toMatch(/GATEWAY_SECRETS_KEY/);
  });

  it("when another key claims the same key id, then authentication still refuses it", () => {
    const sealed = box.seal(PASSWORD);
    const impostor = createSecretBox(generateSecretsKey());
    openError(() => impostor.open({ ...sealed, keyId: impostor.keyId }));
  });

  it("when the key is rotated with the old one kept as previous, then old secrets open and new ones use the new key", () => {
    const old = box.seal(PASSWORD);
    const newKey = generateSecretsKey();
    const rotated = createSecretBox(newKey, [key]);
    expect(rotated.keyId).toBe(secretsKeyId(newKey));
    expect(rotated.open(old)).toBe(PASSWORD);
    const fresh = rotated.seal(PASSWORD);
    expect(fresh.keyId).toBe(secretsKeyId(newKey));
    openError(() => box.open(fresh));
  });

  it("when a key is not 32 bytes, then no box is made", () => {
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(/32 bytes/);
    expect(() => createSecretBox(generateSecretsKey(), [Buffer.alloc(31)])).toThrow(/32 bytes/);
  });

  it("when key ids are computed, then they are stable, short, and differ between keys", () => {
    expect(secretsKeyId(key)).toBe(secretsKeyId(Buffer.from(key)));
    expect(secretsKeyId(key)).toMatch(/^[0-9a-f]{16}$/);
    expect(secretsKeyId(generateSecretsKey())).not.toBe(secretsKeyId(key));
  });
});

describe("reading GATEWAY_SECRETS_KEY", () => {
  it("when the key is base64 of 32 bytes, with or without padding or surrounding space, then it is read", () => {
    const key = generateSecretsKey();
    const text = key.toString("base64");
    expect(parseSecretsKey(text)).toEqual(key);
    expect(parseSecretsKey(text.replace(/=$/, ""))).toEqual(key);
    expect(parseSecretsKey(` ${text}\n`)).toEqual(key);
  });

  it.each([
    ["too short", Buffer.alloc(16, 7).toString("base64")],
    ["too long", Buffer.alloc(48, 7).toString("base64")],
    ["not base64", "not-a-key-but-a-passphrase-of-44-characters!"],
    ["url-safe alphabet", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA-_"],
    ["empty", ""],
  ])("when the key is %s, then the error explains the format without repeating the value", (_why, text) => {
    let message = "";
    try {
      parseSecretsKey(text);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/GATEWAY_SECRETS_KEY must be the base64 encoding of exactly 32 random bytes/);
    if (text !== "") expect(message).not.toContain(text);
  });
});
