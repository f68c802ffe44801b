// The secret box lives in @gateway/platform (shared with the webhooks service's secrets).
export {
  createSecretBox,
  generateSecretsKey,
  parseSecretsKey,
  parseSecretsKeyList,
  SECRETS_KEY_BYTES,
  type SealedSecret,
  type SecretBox,
  SecretUnreadableError,
  secretsKeyId,
} from "@gateway/platform";
