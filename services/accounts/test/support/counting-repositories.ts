import type { AccountsRepositories, ApiKeyRepository } from "../../src/app/ports.js";

/** Wraps the API key store to count calls, to prove which checks never touch the database. */
export function countApiKeyCalls(repos: AccountsRepositories): {
  repos: AccountsRepositories;
  calls: () => number;
} {
  let calls = 0;
  const apiKeys = new Proxy(repos.apiKeys, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as ApiKeyRepository;
  return { repos: { ...repos, apiKeys }, calls: () => calls };
}
