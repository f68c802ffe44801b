import { copyRecord, type SealedSecret, type SecretBox } from "@gateway/platform";
import type { StoredTerminal, TerminalRepository } from "../../app/ports.js";
import { type Terminal, terminalSecretContext } from "../../domain/terminal.js";

/**
 * Terminals keyed by (merchantId, livemode), like the Mongo unique index. Passwords are kept
 * sealed here too, so this store behaves like the Mongo one (a key that cannot open them fails
 * the same way) and a heap dump or inspected object shows no password.
 */
export class InMemoryTerminalRepository implements TerminalRepository {
  private readonly terminals = new Map<string, { terminal: Terminal; sealedPassword: SealedSecret }>();

  constructor(private readonly secrets: SecretBox) {}

  async upsert(terminal: Terminal, password: string): Promise<void> {
    const sealedPassword = this.secrets.seal(
      password,
      terminalSecretContext(terminal.merchantId, terminal.livemode),
    );
    this.terminals.set(keyOf(terminal.merchantId, terminal.livemode), {
      terminal: copyRecord(terminal),
      sealedPassword,
    });
  }

  async find(merchantId: string, livemode: boolean): Promise<Terminal | undefined> {
    const stored = this.terminals.get(keyOf(merchantId, livemode));
    return stored && copyRecord(stored.terminal);
  }

  async findWithPassword(merchantId: string, livemode: boolean): Promise<StoredTerminal | undefined> {
    const stored = this.terminals.get(keyOf(merchantId, livemode));
    if (!stored) return undefined;
    const { sealedPassword } = stored;
    return {
      terminal: copyRecord(stored.terminal),
      openPassword: () => this.secrets.open(sealedPassword, terminalSecretContext(merchantId, livemode)),
    };
  }
}

function keyOf(merchantId: string, livemode: boolean): string {
  return JSON.stringify([merchantId, livemode]);
}
