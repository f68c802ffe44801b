import { ConnectError } from "@connectrpc/connect";
import { expect } from "vitest";

/** The ConnectError a call failed with; fails the test when it succeeded or threw something else. */
export async function connectErrorOf(promise: Promise<unknown>): Promise<ConnectError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConnectError);
  return err as ConnectError;
}
