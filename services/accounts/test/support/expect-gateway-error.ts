import { GatewayError } from "@gateway/platform";
import { expect } from "vitest";

/** Awaits a promise that must reject with a GatewayError and returns that error. */
export async function expectGatewayError(
  promise: Promise<unknown>,
  reason: GatewayError["reason"],
): Promise<GatewayError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  expect((err as GatewayError).reason).toBe(reason);
  return err as GatewayError;
}
