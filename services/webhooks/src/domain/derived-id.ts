import { type IdPrefix, derivedId as platformDerivedId } from "@gateway/platform";

/**
 * A prefixed id computed from `seed`, in the webhooks service's own namespace. Writes that may
 * be repeated after a crash or a redelivered event (the first attempt of an event, the retry of
 * a failed attempt) use it, so the unique id index turns the repeat into a no-op instead of a
 * second record. The namespace text is part of every stored id: never change it.
 */
export function derivedId(prefix: IdPrefix, seed: string): string {
  return platformDerivedId(prefix, `gateway webhooks derived id\n${seed}`);
}
