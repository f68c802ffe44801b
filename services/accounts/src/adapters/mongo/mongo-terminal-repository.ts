import type { SecretBox } from "@gateway/platform";
import { isDuplicateKeyError } from "@gateway/platform";
import type { Collection, Db } from "mongodb";
import type { StoredTerminal, TerminalRepository } from "../../app/ports.js";
import { type Terminal, terminalSecretContext } from "../../domain/terminal.js";
import { type TerminalDocument, terminalsCollection } from "./accounts-collections.js";
import { runMongo } from "./mongo-errors.js";

/** Terminals with their passwords sealed by `secrets` before they reach the database. */
export class MongoTerminalRepository implements TerminalRepository {
  private readonly terminals: Collection<TerminalDocument>;

  constructor(
    db: Db,
    private readonly secrets: SecretBox,
  ) {
    this.terminals = terminalsCollection(db);
  }

  upsert(terminal: Terminal, password: string): Promise<void> {
    const sealedPassword = this.secrets.seal(
      password,
      terminalSecretContext(terminal.merchantId, terminal.livemode),
    );
    return runMongo(async () => {
      const write = () =>
        this.terminals.updateOne(
          { merchantId: terminal.merchantId, livemode: terminal.livemode },
          {
            $set: {
              baseUrl: terminal.baseUrl,
              username: terminal.username,
              sealedPassword,
              active: terminal.active,
              updatedAt: terminal.updatedAt,
            },
          },
          { upsert: true },
        );
      try {
        await write();
      } catch (err) {
        // Two first-time upserts raced and the other inserted: now it is a plain update.
        if (!isDuplicateKeyError(err)) throw err;
        await write();
      }
    });
  }

  find(merchantId: string, livemode: boolean): Promise<Terminal | undefined> {
    return runMongo(async () => {
      // The sealed password is not even fetched: settings reads never carry it.
      const doc = await this.terminals.findOne(
        { merchantId, livemode },
        { projection: { sealedPassword: 0 } },
      );
      return doc ? fromDocument(doc) : undefined;
    });
  }

  findWithPassword(merchantId: string, livemode: boolean): Promise<StoredTerminal | undefined> {
    return runMongo(async () => {
      const doc = await this.terminals.findOne({ merchantId, livemode });
      if (!doc) return undefined;
      const { sealedPassword } = doc;
      return {
        terminal: fromDocument(doc),
        openPassword: () => this.secrets.open(sealedPassword, terminalSecretContext(merchantId, livemode)),
      };
    });
  }
}

function fromDocument(doc: Omit<TerminalDocument, "sealedPassword">): Terminal {
  return {
    merchantId: doc.merchantId,
    livemode: doc.livemode,
    baseUrl: doc.baseUrl,
    username: doc.username,
    active: doc.active,
    updatedAt: doc.updatedAt,
  };
}
