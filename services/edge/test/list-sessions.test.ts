import { beforeEach, describe, expect, it } from "vitest";
import { bearer, createTestEdge, type TestEdge } from "./fakes/edge-test-harness.js";
import { expectProblem } from "./problem-assertions.js";

const LIST = "/api/v1/gateway/sessions/list/";

describe("GET /gateway/sessions/list/", () => {
  let t: TestEdge;
  let headers: Record<string, string>;
  const ids: string[] = [];

  const list = (query = "") => t.app.inject({ method: "GET", url: `${LIST}${query}`, headers });

  beforeEach(async () => {
    t = createTestEdge();
    headers = bearer((await t.accounts.issueKey()).secret);
    ids.length = 0;
    for (let i = 0; i < 25; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/gateway/sessions/",
        headers: { ...headers, "content-type": "application/json" },
        payload: { merchant_reference: `ref-${i}`, amount: "1.000" },
      });
      ids.push(res.json().id as string);
      t.clock.advance(60_000);
    }
  });

  it("when no parameters are given, then the newest 20 come first with a cursor to the rest", async () => {
    const page = await list();
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(Object.keys(body)).toEqual(["data", "has_more", "next_cursor"]);
    expect(body.data).toHaveLength(20);
    expect(body.data[0].id).toBe(ids[24]);
    expect(body.has_more).toBe(true);
    expect(body.next_cursor).toBe(ids[5]);

    const rest = (await list(`?starting_after=${body.next_cursor}`)).json();
    expect(rest.data.map((s: { id: string }) => s.id)).toEqual(ids.slice(0, 5).reverse());
    expect(rest.has_more).toBe(false);
    expect(rest.next_cursor).toBeNull();
  });

  it("filters by status, merchant_reference and creation time", async () => {
    await t.sessions.pay(ids[3]!);
    expect((await list("?status=SUCCEEDED")).json().data.map((s: { id: string }) => s.id)).toEqual([ids[3]]);
    expect((await list("?merchant_reference=ref-7")).json().data.map((s: { id: string }) => s.id)).toEqual([
      ids[7],
    ]);
    // Session i was created at 10:00 + i minutes.
    const window = (
      await list("?created_gte=2026-01-15T10:02:00Z&created_lte=2026-01-15T11:04:00%2B01:00&limit=100")
    ).json();
    expect(window.data.map((s: { id: string }) => s.id)).toEqual([ids[4], ids[3], ids[2]]);
    expect((await list("?limit=3")).json().data).toHaveLength(3);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["limit=", "limit"],
    ["status=created", "status"],
    ["status=UNSPECIFIED", "status"],
    ["status=SESSION_STATUS_CREATED", "status"],
    ["created_gte=yesterday", "created_gte"],
    ["created_lte=2026-02-30T00:00:00Z", "created_lte"],
    ["created_gte=2026-01-15T10:00:00", "created_gte"],
    ["merchant_reference=", "merchant_reference"],
    ["starting_after=", "starting_after"],
    ["colour=red", "colour"],
    ["limit=5&limit=6", "limit"],
  ])("when the query has %s, then 422 invalid on %s", async (query, field) => {
    const doc = expectProblem(await list(`?${query}`), 422, "validation-error", "Validation Error");
    expect(doc.errors).toEqual([{ field, code: "invalid", message: expect.any(String) }]);
  });

  it("when several parameters are bad, then each is reported", async () => {
    const doc = expectProblem(
      await list("?limit=0&status=nope&extra=1"),
      422,
      "validation-error",
      "Validation Error",
    );
    expect((doc.errors as Array<{ field: string }>).map((e) => e.field)).toEqual([
      "limit",
      "status",
      "extra",
    ]);
  });
});
