import { ensureServerBinaries } from "./local-servers/binaries.js";
import { startFerretDb } from "./local-servers/ferretdb-server.js";
import type { LocalServer } from "./local-servers/local-server.js";
import { startNatsServer } from "./local-servers/nats-server.js";
import { pingJetStream, pingMongo } from "./local-servers/probes.js";
import { waitFor } from "./wait-for.js";

/**
 * vitest globalSetup of the `integration` and `e2e` projects. Each of MONGODB_URL and NATS_URL
 * that is set is used as is (after checking it answers); for each one that is not, a local server
 * is started on a free port and its URL put into process.env. vitest builds the test workers'
 * environment from its own process.env after global setups ran, so tests read the URLs from
 * process.env (see testServers()). A second project's setup finds them set and shares the servers.
 */
export default async function setup(): Promise<() => Promise<void>> {
  const started: LocalServer[] = [];
  const stopStarted = async (): Promise<void> => {
    await Promise.allSettled(started.map((server) => server.stop()));
  };

  const needMongo = !process.env.MONGODB_URL;
  const needNats = !process.env.NATS_URL;
  try {
    if (needMongo || needNats) await ensureServerBinaries();
    const [mongodbUrl, natsUrl] = await Promise.all([
      needMongo ? startAndTrack(startFerretDb, started) : checkGiven("MONGODB_URL", pingMongo),
      needNats ? startAndTrack(startNatsServer, started) : checkGiven("NATS_URL", pingJetStream),
    ]);
    process.env.MONGODB_URL = mongodbUrl;
    process.env.NATS_URL = natsUrl;
    if (started.length > 0) {
      const list = started.map((server) => `${server.url} (log: ${server.logFile})`).join(", ");
      process.stderr.write(`[testkit] started local servers: ${list}\n`);
    }
  } catch (err) {
    await stopStarted();
    throw err;
  }

  return async () => {
    // Only what this setup put there: a later run in the same process must start its own servers.
    if (needMongo) delete process.env.MONGODB_URL;
    if (needNats) delete process.env.NATS_URL;
    await stopStarted();
  };
}

async function startAndTrack(start: () => Promise<LocalServer>, started: LocalServer[]): Promise<string> {
  const server = await start();
  started.push(server);
  return server.url;
}

async function checkGiven(
  variable: "MONGODB_URL" | "NATS_URL",
  ping: (url: string) => Promise<void>,
): Promise<string> {
  const url = process.env[variable] as string;
  try {
    await waitFor(() => ping(url).then(() => true), {
      timeoutMs: 10_000,
      intervalMs: 250,
      message: `${variable}=${url} to answer`,
    });
  } catch (err) {
    // Message only: vitest's startup error printer cannot print some driver errors as a cause.
    throw new Error(`${(err as Error).message}. Unset ${variable} to let the testkit start a local server.`);
  }
  return url;
}
