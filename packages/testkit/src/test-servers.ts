export interface TestServers {
  mongodbUrl: string;
  natsUrl: string;
}

/**
 * URLs of the servers integration and end-to-end tests use. The testkit's vitest global setup
 * puts them in MONGODB_URL and NATS_URL (vitest copies its process.env into the test workers),
 * or they come from the environment when you point the tests at servers of your own.
 */
export function testServers(): TestServers {
  const mongodbUrl = process.env.MONGODB_URL;
  const natsUrl = process.env.NATS_URL;
  if (!mongodbUrl || !natsUrl) {
    throw new Error(
      "MONGODB_URL and NATS_URL are not set. Run integration tests through vitest's `integration` or `e2e` project " +
        "(its global setup starts local servers), or set both variables yourself.",
    );
  }
  return { mongodbUrl, natsUrl };
}
