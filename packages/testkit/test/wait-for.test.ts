import { describe, expect, it } from "vitest";
import { waitFor } from "../src/index.js";

describe("waitFor", () => {
  it("when the condition becomes true after a few attempts, then it resolves with its value", async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : undefined), {
      intervalMs: 5,
      timeoutMs: 1_000,
    });
    expect(value).toEqual({ calls: 3 });
  });

  it("when the condition throws at first, then the error counts as not yet", async () => {
    let calls = 0;
    const value = await waitFor(
      async () => {
        calls++;
        if (calls < 2) throw new Error("not yet");
        return "done";
      },
      { intervalMs: 5, timeoutMs: 1_000 },
    );
    expect(value).toBe("done");
  });

  it("when zero or an empty string is returned, then that is a result, not a miss", async () => {
    expect(await waitFor(() => 0, { timeoutMs: 100 })).toBe(0);
    expect(await waitFor(() => "", { timeoutMs: 100 })).toBe("");
  });

  it("when time runs out, then it names what it waited for and the last error", async () => {
    await expect(
      waitFor(
        () => {
          throw new Error("connection refused");
        },
        { timeoutMs: 100, intervalMs: 10, message: "the payment to be captured" },
      ),
    ).rejects.toThrow(
      /timed out after 100 ms .* waiting for the payment to be captured; last error: connection refused/,
    );
  });

  it("when the condition stays false, then it times out without an error detail", async () => {
    await expect(waitFor(() => false, { timeoutMs: 50, intervalMs: 10 })).rejects.toThrow(
      /waiting for condition$/,
    );
  });
});
