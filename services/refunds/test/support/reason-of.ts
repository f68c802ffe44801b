import { GatewayError } from "@gateway/platform";

/** The GatewayError a call fails with (anything else fails the test). */
export async function errorOf(run: () => unknown): Promise<GatewayError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error("expected a GatewayError");
}
