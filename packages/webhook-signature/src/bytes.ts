import { Buffer } from "node:buffer";

/** A webhook body as the bytes that travel on the wire (strings are UTF-8). */
export type Body = Uint8Array | string;

export function isBody(value: unknown): value is Body {
  return typeof value === "string" || value instanceof Uint8Array;
}

/**
 * The bytes of a body without copying a Buffer or a Uint8Array. Signing works on bytes, never on a
 * decoded string, so a body that is not valid UTF-8 is still signed exactly as sent.
 */
export function bodyBytes(body: Body): Buffer {
  if (typeof body === "string") return Buffer.from(body, "utf8");
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** `<prefix><body bytes>`: the signed payload of both schemes. */
export function prefixed(prefix: string, body: Body): Buffer {
  return Buffer.concat([Buffer.from(prefix, "utf8"), bodyBytes(body)]);
}
