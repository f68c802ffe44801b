import { createSecretBox, generateSecretsKey, newId, type SecretBox } from "@gateway/platform";
import { beforeEach, describe, expect, it } from "vitest";
import type { TerminalRepository } from "../../src/app/ports.js";
import type { Terminal } from "../../src/domain/terminal.js";

function aTerminal(overrides: Partial<Terminal> = {}): Terminal {
  return {
    merchantId: newId("mer"),
    livemode: false,
    baseUrl: "http://127.0.0.1:8080/epg/rest",
    username: "sim-merchant",
    active: true,
    updatedAt: new Date("2026-01-01T00:00:00.000Z"),
    ...overrides,
  };
}

/** `factory` builds the store over fresh or shared state; passwords are sealed with the box given. */
export function describeTerminalRepositoryContract(
  name: string,
  factory: (secrets: SecretBox) => Promise<TerminalRepository>,
): void {
  describe(`TerminalRepository contract: ${name}`, () => {
    let terminals: TerminalRepository;
    beforeEach(async () => {
      terminals = await factory(createSecretBox(generateSecretsKey()));
    });

    it("when no terminal was set, then nothing is found", async () => {
      expect(await terminals.find(newId("mer"), false)).toBeUndefined();
      expect(await terminals.findWithPassword(newId("mer"), true)).toBeUndefined();
    });

    it("when a terminal is set, then its settings are found intact and without any password", async () => {
      const terminal = aTerminal();
      await terminals.upsert(terminal, "s3cret pass");
      const found = await terminals.find(terminal.merchantId, false);
      expect(found).toEqual(terminal);
      expect(JSON.stringify(found)).not.toContain("s3cret");
    });

    it("when a terminal is read with its password, then the password opens exactly as given", async () => {
      const terminal = aTerminal();
      const password = " pâss wörd 🔐 with spaces ";
      await terminals.upsert(terminal, password);
      const stored = await terminals.findWithPassword(terminal.merchantId, false);
      expect(stored?.terminal).toEqual(terminal);
      expect(stored?.openPassword()).toBe(password);
    });

    it("when a terminal is set again, then the new settings and password replace the old ones", async () => {
      const first = aTerminal();
      await terminals.upsert(first, "old-password");
      const second = {
        ...first,
        baseUrl: "https://acquirer.example/rest",
        username: "shop-2",
        active: false,
        updatedAt: new Date("2026-02-01T00:00:00.000Z"),
      };
      await terminals.upsert(second, "new-password");
      expect(await terminals.find(first.merchantId, false)).toEqual(second);
      expect((await terminals.findWithPassword(first.merchantId, false))?.openPassword()).toBe(
        "new-password",
      );
    });

    it("when terminals differ by mode or merchant, then each keeps its own settings and password", async () => {
      const merchantId = newId("mer");
      const test = aTerminal({ merchantId, livemode: false, username: "test-user" });
      const live = aTerminal({
        merchantId,
        livemode: true,
        baseUrl: "https://acquirer.example/rest",
        username: "live-user",
      });
      const other = aTerminal({ username: "other-user" });
      await terminals.upsert(test, "test-password");
      await terminals.upsert(live, "live-password");
      await terminals.upsert(other, "other-password");
      expect(await terminals.find(merchantId, false)).toEqual(test);
      expect(await terminals.find(merchantId, true)).toEqual(live);
      expect((await terminals.findWithPassword(merchantId, false))?.openPassword()).toBe("test-password");
      expect((await terminals.findWithPassword(merchantId, true))?.openPassword()).toBe("live-password");
      expect((await terminals.findWithPassword(other.merchantId, false))?.openPassword()).toBe(
        "other-password",
      );
      expect(await terminals.find(other.merchantId, true)).toBeUndefined();
    });

    it("when the first terminal of a pair is set concurrently, then every write succeeds and one of them remains", async () => {
      const merchantId = newId("mer");
      const writes = ["a", "b", "c", "d", "e"].map((user) =>
        aTerminal({ merchantId, username: `user-${user}` }),
      );
      await Promise.all(
        writes.map((terminal) => terminals.upsert(terminal, `password-${terminal.username}`)),
      );
      const stored = await terminals.findWithPassword(merchantId, false);
      expect(writes.map((w) => w.username)).toContain(stored?.terminal.username);
      expect(stored?.openPassword()).toBe(`password-${stored?.terminal.username}`);
    });

    it("when a returned terminal is changed by the caller, then the stored one is not", async () => {
      const terminal = aTerminal();
      await terminals.upsert(terminal, "password");
      const found = await terminals.find(terminal.merchantId, false);
      found!.active = false;
      terminal.username = "changed after upsert";
      expect(await terminals.find(terminal.merchantId, false)).toMatchObject({
        active: true,
        username: "sim-merchant",
      });
    });
  });
}
