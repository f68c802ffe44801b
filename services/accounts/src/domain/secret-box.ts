// The secret box lives in @gateway/platform (shared with the webhooks service's secrets).
export {
  createSecretBox,
  generateSecretsKey,
  parseSecretsKey,
  parseSecretsKeyList,
  SECRETS_KEY_BYTES,
  secretsKeyId,
  SecretUnreadableError,
  type SealedSecret,
  type SecretBox,
} from "@gateway/platform";
