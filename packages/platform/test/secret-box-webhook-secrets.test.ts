import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createSecretBox,
  parseSecretsKey,
  parseSecretsKeyList,
  SecretUnreadableError,
} from "../src/secret-box.js";

const SECRET = "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ=";

describe("secret box (AES-256-GCM at rest)", () => {
  it("when a secret is sealed, then the stored parts do not contain it and it opens back", () => {
    const box = createSecretBox(randomBytes(32));
    const sealed = box.seal(SECRET, "ctx");
    expect(JSON.stringify(sealed)).not.toContain("whsec_");
    expect(JSON.stringify(sealed)).not.toContain(SECRET.slice(6, 20));
    expect(box.open(sealed, "ctx")).toBe(SECRET);
  });

  it("when it is opened for another record, then it refuses", () => {
    const box = createSecretBox(randomBytes(32));
    expect(() => box.open(box.seal(SECRET, "merchant A"), "merchant B")).toThrow(SecretUnreadableError);
  });

  it("when the key changed and the old one is listed as previous, then old secrets still open", () => {
    const oldKey = randomBytes(32);
    const sealed = createSecretBox(oldKey).seal(SECRET, "ctx");
    expect(() => createSecretBox(randomBytes(32)).open(sealed, "ctx")).toThrow(/not configured/);
    expect(createSecretBox(randomBytes(32), [oldKey]).open(sealed, "ctx")).toBe(SECRET);
  });

  it("when a key is not base64 of 32 bytes, then the error explains and never repeats it", () => {
    const bad = "not-a-key-but-maybe-a-typo-of-one";
    expect(() => parseSecretsKey(bad)).toThrow(
      /GATEWAY_SECRETS_KEY must be the base64 encoding of exactly 32/,
    );
    try {
      parseSecretsKey(bad);
    } catch (err) {
      expect((err as Error).message).not.toContain(bad);
    }
    const good = randomBytes(32).toString("base64");
    expect(parseSecretsKey(good)).toHaveLength(32);
    expect(parseSecretsKeyList(`${good}, ${randomBytes(32).toString("base64")}`)).toHaveLength(2);
  });
});
