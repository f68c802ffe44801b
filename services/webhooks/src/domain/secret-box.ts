// The secret box lives in @gateway/platform (shared with the accounts service's terminal passwords).
export {
  createSecretBox,
  parseSecretsKey,
  parseSecretsKeyList,
  SECRETS_KEY_BYTES,
  type SealedSecret,
  type SecretBox,
  SecretUnreadableError,
  secretsKeyId,
} from "@gateway/platform";
