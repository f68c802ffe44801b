import {
  type AccountsRepositories,
  createMemoryAccountsRepositories,
  createMongoAccountsRepositories,
  secretBoxFromConfig,
} from "@gateway/accounts";
import {
  type Clock,
  connectMongo,
  connectNats,
  createJetStreamEventBus,
  type EventBus,
  ensureEventsStream,
  InMemoryEventBus,
  type Logger,
  pingMongo,
  pingNats,
  type ReadinessCheck,
} from "@gateway/platform";
import {
  createMongoBalanceLedger,
  createMongoPaidSessionStore,
  createMongoRefundRepository,
  InMemoryBalanceLedger,
  InMemoryPaidSessionStore,
  InMemoryRefundRepository,
} from "@gateway/refunds";
import type { InMemorySessionRepository } from "@gateway/sessions";
import {
  createMemorySessionRepository,
  createMongoSessionRepository,
  createMongoSweepLocks,
  InMemorySweepLocks,
} from "@gateway/sessions";
import {
  createMemoryWebhooksStores,
  createMongoWebhooksStores,
  createSecretBox,
  InMemoryDeliveryRepository,
  InMemoryWebhookEventRepository,
  parseSecretsKey,
} from "@gateway/webhooks";

/** How long a relay's publish waits for the in-process consumers to store an event (durable mode without NATS). */
const HAND_OFF_TIMEOUT_MS = 30_000;

type Awaited2<T> = T extends Promise<infer U> ? U : T;

/** Every store of every service, and the bus between them, for one embedded process. */
export interface EmbeddedStores {
  /** "memory", "mongodb" or "mongodb+nats": what the start banner reports. */
  kind: "memory" | "mongodb" | "mongodb+nats";
  accounts: AccountsRepositories;
  sessions: Awaited2<ReturnType<typeof createMongoSessionRepository>>;
  sweepLocks: Awaited2<ReturnType<typeof createMongoSweepLocks>>;
  refunds: InMemoryRefundRepository | Awaited2<ReturnType<typeof createMongoRefundRepository>>;
  paidSessions: InMemoryPaidSessionStore | Awaited2<ReturnType<typeof createMongoPaidSessionStore>>;
  ledger: InMemoryBalanceLedger | Awaited2<ReturnType<typeof createMongoBalanceLedger>>;
  webhooks: ReturnType<typeof createMemoryWebhooksStores>;
  bus: EventBus;
  /** In memory only: the stores whose old records the retention window removes. */
  memory?: MemoryStores;
  readiness: ReadinessCheck[];
  close(): Promise<void>;
}

/** The in-memory stores that hold per-session records, by their concrete classes. */
export interface MemoryStores {
  sessions: InMemorySessionRepository;
  deliveries: InMemoryDeliveryRepository;
  events: InMemoryWebhookEventRepository;
  refunds: InMemoryRefundRepository;
  paidSessions: InMemoryPaidSessionStore;
  ledger: InMemoryBalanceLedger;
}

export interface EmbeddedStoresConfig {
  mongodbUrl?: string;
  mongodbDatabasePrefix: string;
  natsUrl?: string;
  secretsKey?: string;
  demo: boolean;
}

/**
 * Memory stores, or, with MONGODB_URL, the Mongo adapters the distributed services use (one
 * database per service, as there) and the JetStream bus when NATS_URL is set too. Without NATS
 * the bus is in memory in hand-off mode: every outbox (sessions, refunds) lives in MongoDB and is
 * marked published only once the consumers have stored the event, so a restart loses nothing.
 */
export async function openEmbeddedStores(
  config: EmbeddedStoresConfig,
  clock: Clock,
  logger: Logger,
): Promise<EmbeddedStores> {
  if (!config.mongodbUrl) {
    const memory: MemoryStores = {
      sessions: createMemorySessionRepository(),
      deliveries: new InMemoryDeliveryRepository(),
      events: new InMemoryWebhookEventRepository(),
      refunds: new InMemoryRefundRepository(),
      paidSessions: new InMemoryPaidSessionStore(),
      ledger: new InMemoryBalanceLedger(),
    };
    return {
      kind: "memory",
      accounts: createMemoryAccountsRepositories(),
      sessions: memory.sessions,
      sweepLocks: new InMemorySweepLocks(),
      refunds: memory.refunds,
      paidSessions: memory.paidSessions,
      ledger: memory.ledger,
      webhooks: { ...createMemoryWebhooksStores(), deliveries: memory.deliveries, events: memory.events },
      bus: new InMemoryEventBus({ clock }),
      memory,
      readiness: [],
      close: async () => undefined,
    };
  }
  if (!config.secretsKey) {
    // A random key per start would make every stored terminal password and webhook secret unreadable after a restart.
    throw new Error(
      "GATEWAY_SECRETS_KEY is required with MONGODB_URL: it encrypts the stored terminal passwords and webhook secrets. Generate one with: openssl rand -base64 32",
    );
  }
  const mongo = await connectMongo(config.mongodbUrl, "gateway");
  const closers: Array<() => Promise<void>> = [() => mongo.close()];
  try {
    const db = (service: string) => mongo.db(`${config.mongodbDatabasePrefix}_${service}`);
    const accountsBox = secretBoxFromConfig(
      { secretsKey: config.secretsKey, secretsPreviousKeys: undefined, demo: config.demo },
      logger,
    );
    const readiness: ReadinessCheck[] = [{ name: "mongo", check: () => pingMongo(db("sessions")) }];
    let bus: EventBus;
    if (config.natsUrl) {
      const nc = await connectNats(config.natsUrl, "gateway", logger);
      closers.unshift(() => nc.drain());
      await ensureEventsStream(nc);
      bus = await createJetStreamEventBus({ nc, logger });
      readiness.push({ name: "nats", check: () => pingNats(nc) });
    } else {
      bus = new InMemoryEventBus({ clock, logger, handOffTimeoutMs: HAND_OFF_TIMEOUT_MS });
    }
    closers.unshift(() => bus.close());
    return {
      kind: config.natsUrl ? "mongodb+nats" : "mongodb",
      accounts: await createMongoAccountsRepositories(db("accounts"), { secretBox: accountsBox }),
      sessions: await createMongoSessionRepository(db("sessions")),
      sweepLocks: await createMongoSweepLocks(db("sessions")),
      refunds: await createMongoRefundRepository(db("refunds")),
      paidSessions: await createMongoPaidSessionStore(db("refunds")),
      ledger: await createMongoBalanceLedger(db("refunds")),
      webhooks: await createMongoWebhooksStores(
        db("webhooks"),
        createSecretBox(parseSecretsKey(config.secretsKey), []),
      ),
      bus,
      readiness,
      async close() {
        for (const close of closers) await close();
      },
    };
  } catch (err) {
    for (const close of closers) await close().catch(() => undefined);
    throw err;
  }
}
