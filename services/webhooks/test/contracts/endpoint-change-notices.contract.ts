import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EndpointChangeNotices } from "../../src/app/ports.js";
import type { AccountScope } from "../../src/domain/account-scope.js";
import { newScope } from "../support/fixtures.js";

/** Two replicas on one medium, and how to close what opening them opened. */
export interface NoticePair {
  first: EndpointChangeNotices;
  second: EndpointChangeNotices;
  /** Resolves once every notice announced so far has reached its listeners. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/** The contract of EndpointChangeNotices, for the in-process hub and core NATS. */
export function endpointChangeNoticesContract(adapter: string, open: () => Promise<NoticePair>): void {
  describe(`EndpointChangeNotices contract: ${adapter}`, () => {
    let pair: NoticePair;
    beforeAll(async () => {
      pair = await open();
    });
    afterAll(async () => {
      await pair.close();
    });

    it("when one replica announces a change, then the other hears that account and mode, and the announcer does not", async () => {
      const heardByFirst: AccountScope[] = [];
      const heardBySecond: AccountScope[] = [];
      const stopFirst = pair.first.listen((scope) => heardByFirst.push(scope));
      const stopSecond = pair.second.listen((scope) => heardBySecond.push(scope));
      await pair.settle();
      const live = newScope(true);
      const test = { merchantId: live.merchantId, livemode: false };
      pair.first.announce(live);
      pair.first.announce(test);
      await pair.settle();
      expect(heardBySecond).toEqual([live, test]);
      expect(heardByFirst).toEqual([]);
      stopFirst();
      stopSecond();
    });

    it("when a replica stops listening, then it hears nothing more", async () => {
      const heard: AccountScope[] = [];
      const stop = pair.second.listen((scope) => heard.push(scope));
      await pair.settle();
      stop();
      await pair.settle();
      pair.first.announce(newScope());
      await pair.settle();
      expect(heard).toEqual([]);
    });

    it("when a merchant id holds subject-like characters, then it arrives unchanged", async () => {
      const heard: AccountScope[] = [];
      const stop = pair.second.listen((scope) => heard.push(scope));
      await pair.settle();
      const odd = { merchantId: 'mer_a.b.*.>\n"é', livemode: false };
      pair.first.announce(odd);
      await pair.settle();
      expect(heard).toEqual([odd]);
      stop();
    });
  });
}
