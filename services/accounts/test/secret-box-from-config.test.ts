import { createSecretBox, generateSecretsKey, secretsKeyId } from "@gateway/platform";
import { describe, expect, it } from "vitest";
import { secretBoxFromConfig } from "../src/secret-box-from-config.js";
import { createCaptureLogger } from "./support/capture-logger.js";

function errorOf(run: () => unknown): Error {
  try {
    run();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected an error");
}

describe("the secret box from configuration", () => {
  it("when GATEWAY_SECRETS_KEY is set, then passwords are sealed with it and nothing is logged", () => {
    const key = generateSecretsKey();
    const { logger, text } = createCaptureLogger();
    const box = secretBoxFromConfig(
      { secretsKey: key.toString("base64"), secretsPreviousKeys: undefined, demo: false },
      logger,
    );
    expect(box.keyId).toBe(secretsKeyId(key));
    expect(createSecretBox(key).open(box.seal("pw"))).toBe("pw");
    expect(text()).toBe("");
  });

  it("when previous keys are listed, then what they sealed still opens", () => {
    const old1 = generateSecretsKey();
    const old2 = generateSecretsKey();
    const { logger } = createCaptureLogger();
    const box = secretBoxFromConfig(
      {
        secretsKey: generateSecretsKey().toString("base64"),
        secretsPreviousKeys: ` ${old1.toString("base64")} ,${old2.toString("base64")},`,
        demo: false,
      },
      logger,
    );
    expect(box.open(createSecretBox(old1).seal("one"))).toBe("one");
    expect(box.open(createSecretBox(old2).seal("two"))).toBe("two");
  });

  it("when the key is missing and the demo is off, then start-up fails naming the variable and how to make one", () => {
    const { logger } = createCaptureLogger();
    const err = errorOf(() =>
      secretBoxFromConfig({ secretsKey: undefined, secretsPreviousKeys: undefined, demo: false }, logger),
    );
    expect(err.message).toMatch(/GATEWAY_SECRETS_KEY is required when GATEWAY_DEMO is off/);
    expect(err.message).toMatch(/openssl rand -base64 32/);
  });

  it("when the key is missing and the demo is on, then a random key is used and a warning says passwords will not survive a restart", () => {
    const { logger, text } = createCaptureLogger();
    const first = secretBoxFromConfig(
      { secretsKey: undefined, secretsPreviousKeys: undefined, demo: true },
      logger,
    );
    const second = secretBoxFromConfig(
      { secretsKey: undefined, secretsPreviousKeys: undefined, demo: true },
      logger,
    );
    expect(first.keyId).not.toBe(second.keyId);
    expect(first.open(first.seal("pw"))).toBe("pw");
    const warning = JSON.parse(text().split("\n")[0]!) as { level: number; msg: string; keyId: string };
    expect(warning.level).toBe(40);
    expect(warning.msg).toMatch(/GATEWAY_SECRETS_KEY is not set.*cannot be read after a restart/);
    expect(warning.keyId).toBe(first.keyId);
  });

  it("when the key or a previous key is malformed, then the error explains the format without echoing the value", () => {
    const { logger } = createCaptureLogger();
    const bad = "my-secret-passphrase";
    const current = errorOf(() =>
      secretBoxFromConfig({ secretsKey: bad, secretsPreviousKeys: undefined, demo: true }, logger),
    );
    expect(current.message).toMatch(
      /^GATEWAY_SECRETS_KEY must be the base64 encoding of exactly 32 random bytes/,
    );
    expect(current.message).not.toContain(bad);
    const previous = errorOf(() =>
      secretBoxFromConfig(
        { secretsKey: generateSecretsKey().toString("base64"), secretsPreviousKeys: bad, demo: false },
        logger,
      ),
    );
    expect(previous.message).toMatch(/GATEWAY_SECRETS_PREVIOUS_KEYS must be/);
    expect(previous.message).not.toContain(bad);
  });
});
