import { ManualClock } from "@gateway/platform";
import { generateWebhookSecret } from "@gateway/webhook-signature";
import { describe, expect, it } from "vitest";
import { InMemoryEndpointChangeHub } from "../../src/adapters/memory/in-memory-endpoint-change-notices.js";
import { InMemoryEndpointRepository } from "../../src/adapters/memory/in-memory-endpoint-repository.js";
import type { EndpointRepository } from "../../src/app/ports.js";
import { REMEMBER_ENDPOINTS_MS, rememberEndpoints } from "../../src/app/remembered-endpoints.js";
import type { AccountScope } from "../../src/domain/account-scope.js";
import type { WebhookEndpoint } from "../../src/domain/webhook-endpoint.js";
import { newScope } from "../support/fixtures.js";

const URL_A = "https://shop.example.tn/hooks";
const URL_B = "https://shop.example.tn/v2/hooks";

/** The stored endpoints, counting reads, with a way to hold a read until the test lets it go. */
class CountingEndpoints extends InMemoryEndpointRepository {
  reads = 0;
  failNextRead = false;
  private held: (() => void)[] = [];
  holdReads = false;

  /** The next URL change is written, then its answer is lost (a dropped connection). */
  loseNextChangeAnswer = false;

  override async setUrl(...args: Parameters<EndpointRepository["setUrl"]>) {
    const result = await super.setUrl(...args);
    if (this.loseNextChangeAnswer) {
      this.loseNextChangeAnswer = false;
      throw new Error("answer lost after the write");
    }
    return result;
  }

  override async find(scope: AccountScope): Promise<WebhookEndpoint | undefined> {
    this.reads++;
    if (this.failNextRead) {
      this.failNextRead = false;
      throw new Error("database unreachable");
    }
    const answer = await super.find(scope);
    if (this.holdReads) await new Promise<void>((release) => this.held.push(release));
    return answer;
  }

  releaseReads(): void {
    for (const release of this.held.splice(0)) release();
  }
}

/** Two webhooks replicas over one database, each remembering endpoints, hearing each other. */
function twoReplicas() {
  const clock = new ManualClock(new Date(Date.UTC(2026, 0, 1)));
  const stored = new CountingEndpoints();
  const hub = new InMemoryEndpointChangeHub();
  const first = rememberEndpoints(stored, { clock, notices: hub.replica() });
  const second = rememberEndpoints(stored, { clock, notices: hub.replica() });
  return { clock, stored, first, second };
}

const setUrl = (repo: EndpointRepository, scope: AccountScope, url: string) =>
  repo.setUrl(scope, url, generateWebhookSecret(), new Date());

describe("endpoints remembered between changes", () => {
  it("when events of one account keep coming, then its endpoint is read once", async () => {
    const { stored, first } = twoReplicas();
    const scope = newScope();
    await setUrl(stored, scope, URL_A);
    for (let i = 0; i < 5; i++) expect((await first.find(scope))?.url).toBe(URL_A);
    expect(stored.reads).toBe(1);
  });

  it("when many ask at once, then they share one read", async () => {
    const { stored, first } = twoReplicas();
    const scope = newScope();
    await setUrl(stored, scope, URL_A);
    const answers = await Promise.all(Array.from({ length: 8 }, () => first.find(scope)));
    expect(answers.every((e) => e?.url === URL_A)).toBe(true);
    expect(stored.reads).toBe(1);
  });

  it("when an account has no endpoint, then that is remembered too", async () => {
    const { stored, first } = twoReplicas();
    const scope = newScope();
    expect(await first.find(scope)).toBeUndefined();
    expect(await first.find(scope)).toBeUndefined();
    expect(stored.reads).toBe(1);
  });

  it("when the time to trust it has passed, then the endpoint is read again", async () => {
    const { clock, stored, first } = twoReplicas();
    const scope = newScope();
    await setUrl(stored, scope, URL_A);
    await first.find(scope);
    clock.advance(REMEMBER_ENDPOINTS_MS / 2 - 1);
    await first.find(scope);
    expect(stored.reads).toBe(1);
    // A change no notice told us of (a replica cut off from the others) shows after the bound.
    await setUrl(stored, scope, URL_B);
    clock.advance(REMEMBER_ENDPOINTS_MS / 2 + 1);
    expect((await first.find(scope))?.url).toBe(URL_B);
    expect(stored.reads).toBe(2);
  });

  it("when this replica changes the endpoint, then its next events use the change without a read", async () => {
    const { stored, first } = twoReplicas();
    const scope = newScope();
    await setUrl(first, scope, URL_A);
    await first.find(scope);
    await setUrl(first, scope, URL_B);
    expect((await first.find(scope))?.url).toBe(URL_B);
    expect(stored.reads).toBe(0);
  });

  it("when another replica changes the endpoint, then this one forgets it at once and reads the change", async () => {
    const { stored, first, second } = twoReplicas();
    const scope = newScope();
    await setUrl(stored, scope, URL_A);
    expect((await first.find(scope))?.url).toBe(URL_A);
    await setUrl(second, scope, URL_B);
    expect((await first.find(scope))?.url).toBe(URL_B);

    const rotated = await second.rotateSecret(scope, generateWebhookSecret(), new Date(), new Date());
    expect((await first.find(scope))?.secret).toBe(rotated.endpoint.secret);

    await second.setSubscriptions(scope, ["refund.*"], generateWebhookSecret(), new Date());
    expect((await first.find(scope))?.enabledEvents).toEqual(["refund.*"]);
  });

  it("when another replica disables the endpoint (410 Gone), then this one stops using it at once", async () => {
    const { stored, first, second } = twoReplicas();
    const scope = newScope();
    await setUrl(stored, scope, URL_A);
    await first.find(scope);
    await second.find(scope);
    expect(await second.disable(scope, URL_A, new Date(), "Receiver answered HTTP 410 Gone")).toBe(true);
    expect((await first.find(scope))?.disabledAt).toBeInstanceOf(Date);
    expect((await second.find(scope))?.disabledAt).toBeInstanceOf(Date);
  });

  it("when another replica creates the account's first endpoint, then this one no longer remembers there is none", async () => {
    const { first, second } = twoReplicas();
    const scope = newScope();
    expect(await first.find(scope)).toBeUndefined();
    const created = await second.ensureSecret(scope, generateWebhookSecret(), new Date());
    expect((await first.find(scope))?.secret).toBe(created.secret);
  });

  it("when a change is heard while a read is on its way, then the read's old answer is not kept", async () => {
    const { stored, first, second } = twoReplicas();
    const scope = newScope();
    await setUrl(stored, scope, URL_A);
    stored.holdReads = true;
    const early = first.find(scope);
    await setUrl(second, scope, URL_B);
    stored.holdReads = false;
    stored.releaseReads();
    expect((await early)?.url).toBe(URL_A);
    expect((await first.find(scope))?.url).toBe(URL_B);
  });

  it("when a read fails, then the failure is not remembered and the next event reads again", async () => {
    const { stored, first } = twoReplicas();
    const scope = newScope();
    await setUrl(stored, scope, URL_A);
    stored.failNextRead = true;
    await expect(first.find(scope)).rejects.toThrow("database unreachable");
    expect((await first.find(scope))?.url).toBe(URL_A);
    expect(stored.reads).toBe(2);
  });

  it("when a change fails, then both replicas read the endpoint afresh, in case it was written", async () => {
    const { stored, first, second } = twoReplicas();
    const scope = newScope();
    await setUrl(stored, scope, URL_A);
    await first.find(scope);
    await second.find(scope);
    stored.loseNextChangeAnswer = true;
    await expect(setUrl(first, scope, URL_B)).rejects.toThrow("answer lost");
    expect((await first.find(scope))?.url).toBe(URL_B);
    expect((await second.find(scope))?.url).toBe(URL_B);
  });

  it("when the memory is closed, then it no longer listens for changes", async () => {
    const clock = new ManualClock(new Date());
    const hub = new InMemoryEndpointChangeHub();
    let listening = 0;
    const notices = hub.replica();
    const counted = {
      announce: notices.announce,
      listen: (onChange: (scope: AccountScope) => void) => {
        listening++;
        const stop = notices.listen(onChange);
        return () => {
          listening--;
          stop();
        };
      },
    };
    const memory = rememberEndpoints(new InMemoryEndpointRepository(), { clock, notices: counted });
    expect(listening).toBe(1);
    memory.close();
    expect(listening).toBe(0);
  });
});
