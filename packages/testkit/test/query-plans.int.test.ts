import type { Collection } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { createQueryPlanDb } from "../src/index.js";

// The services' query-plan tests trust this checker to fail on a query the database would
// answer by reading everything; these cases show it does, each for its own reason, on the local
// FerretDB the suites run on (PLAN_MONGODB_URL unset: a real MongoDB reports a collection scan).
describe("the query-plan checker", () => {
  const plans = createQueryPlanDb("checker");
  afterAll(() => plans.close());

  const failuresFor = async (run: (items: Collection) => Promise<unknown>): Promise<string[]> => {
    const items = (await plans.db()).collection("items");
    await items.createIndex({ merchantId: 1, livemode: 1, createdAt: -1 }, { name: "list" });
    await run(items);
    return plans.failures();
  };

  it("when a bounded find looks up an indexed key by equality, then it has no problem", async () => {
    expect(
      await failuresFor((items) => items.find({ merchantId: "m1", livemode: true }).limit(10).toArray()),
    ).toEqual([]);
  });

  it("when queries read everything, then each is named with its reason", async () => {
    const failures = await failuresFor(async (items) => {
      await items.find({ merchantId: "m1" }).toArray();
      await items.find({ livemode: true }).limit(10).toArray();
      await items
        .find({ createdAt: { $lte: new Date() } })
        .limit(10)
        .toArray();
    });
    expect(failures).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^items find \{merchantId:\?\}: find without a limit$/),
        expect.stringMatching(
          /^items find \{livemode:\?\}: no equality on a key the local server indexes \(livemode\)/,
        ),
        expect.stringMatching(
          /^items find \{createdAt:\{\$lte:\?\}\}: FerretDB does not push this filter down/,
        ),
      ]),
    );
  });
});
