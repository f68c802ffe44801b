import type { Logger } from "@gateway/platform";
import { createSecretBox, generateSecretsKey, parseSecretsKey, type SecretBox } from "@gateway/platform";

export interface SecretsKeyConfig {
  secretsKey: string | undefined;
  secretsPreviousKeys: string | undefined;
  demo: boolean;
}

/**
 * The box that seals terminal passwords, from GATEWAY_SECRETS_KEY (and the previous keys kept
 * for reading). Without a key the service refuses to start, except in demo mode: a demo gets
 * a random key for this run, and a warning that passwords stored now die with the process.
 * Errors name the variable and the format, never the value.
 */
export function secretBoxFromConfig(config: SecretsKeyConfig, logger: Logger): SecretBox {
  const previous = (config.secretsPreviousKeys ?? "")
    .split(",")
    .map((text) => text.trim())
    .filter((text) => text !== "")
    .map((text) => parseSecretsKey(text, "each of GATEWAY_SECRETS_PREVIOUS_KEYS"));
  if (config.secretsKey !== undefined) return createSecretBox(parseSecretsKey(config.secretsKey), previous);
  if (!config.demo) {
    throw new Error(
      "GATEWAY_SECRETS_KEY is required when GATEWAY_DEMO is off: it encrypts the stored terminal passwords. Generate one with: openssl rand -base64 32",
    );
  }
  const box = createSecretBox(generateSecretsKey(), previous);
  logger.warn(
    { keyId: box.keyId },
    "GATEWAY_SECRETS_KEY is not set: terminal passwords are encrypted with a random key made for this run, so passwords stored now cannot be read after a restart (the demo terminal is set again at every start). Set GATEWAY_SECRETS_KEY to keep them.",
  );
  return box;
}
