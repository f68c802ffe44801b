import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

// Dashboard passwords are hashed with scrypt, a memory-hard KDF (OWASP's parameters for scrypt:
// N=2^17, r=8, p=1 need 128 MiB a hash; we use N=2^15 with r=8 — 32 MiB — so that a sign-in burst
// cannot exhaust the accounts process, and throttle sign-in instead). The parameters are stored
// with each hash, so they can be raised later and old hashes still verify.

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export interface ScryptParameters {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

export const DEFAULT_SCRYPT_PARAMETERS: ScryptParameters = { N: 2 ** 15, r: 8, p: 1 };

function derive(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; allow exactly that plus slack, no more.
  const maxmem = 128 * params.N * params.r + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFKC"),
      salt,
      KEY_LENGTH,
      { N: params.N, r: params.r, p: params.p, maxmem },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** `scrypt$<N>$<r>$<p>$<salt b64url>$<key b64url>`: everything needed to verify, nothing reversible. */
export async function hashPassword(
  password: string,
  params: ScryptParameters = DEFAULT_SCRYPT_PARAMETERS,
): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join(
    "$",
  );
}

const ENCODED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

/** Whether the password matches the stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const match = ENCODED.exec(encoded);
  if (!match) return false;
  const params = { N: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  const expected = Buffer.from(match[5]!, "base64url");
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await derive(password, Buffer.from(match[4]!, "base64url"), params);
  return timingSafeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs what a real verification costs. */
export const DUMMY_PASSWORD_HASH_PROMISE: () => Promise<string> = (() => {
  let dummy: Promise<string> | undefined;
  return () => {
    dummy ??= hashPassword(randomBytes(24).toString("base64url"));
    return dummy;
  };
})();
