import { defineConfig } from "vitest/config";

// Three levels, as connect-es does it: fast unit tests in memory, integration tests against
// real servers (MongoDB wire server, NATS JetStream) started once by the testkit, and
// end-to-end suites that run the gateway as separate processes over real HTTP and gRPC.
export default defineConfig({
  test: {
    reporters: ["default"],
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "packages/*/test/**/*.test.ts",
            "services/*/test/**/*.test.ts",
            "apps/*/test/**/*.test.ts",
            "bench/test/**/*.test.ts",
            "test/architecture/**/*.test.ts",
            "test/repo/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: "integration",
          include: [
            "packages/*/test/**/*.int.test.ts",
            "services/*/test/**/*.int.test.ts",
            "apps/*/test/**/*.int.test.ts",
          ],
          globalSetup: ["packages/testkit/src/vitest-global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["packages/testkit/src/vitest-global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // End-to-end suites start several processes each: one file at a time on 2 cores.
          fileParallelism: false,
        },
      },
      {
        test: {
          // Real headless Chromium (Debian's /usr/bin/chromium) against pages served on loopback.
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
