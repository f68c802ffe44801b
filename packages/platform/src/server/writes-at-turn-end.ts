import type { Server } from "node:net";
import { Socket } from "node:net";

type WriteCallback = (error?: Error | null) => void;
type WritevChunks = Array<{ chunk: unknown; encoding: BufferEncoding }>;

/** A socket write held until the end of this turn of the event loop: one chunk, or several. */
interface HeldWrite {
  socket: Socket;
  /** Several chunks (a corked answer's head and body), or undefined for one. */
  chunks: WritevChunks | undefined;
  chunk: unknown;
  encoding: BufferEncoding | undefined;
  callback: WriteCallback;
  /** Set once the write is handed to its socket: at the turn's end, or earlier if it is destroyed. */
  handedOver: boolean;
}

const writeNow = Socket.prototype._write;
const writevNow = Socket.prototype._writev as (this: Socket, chunks: WritevChunks, cb: WriteCallback) => void;
const destroyNow = Socket.prototype._destroy;

/** The writes held in this turn, in the order they were made. */
let held: HeldWrite[] = [];

function hold(write: HeldWrite): void {
  if (held.length === 0) setImmediate(releaseHeldWrites);
  held.push(write);
}

function holdWrite(this: Socket, chunk: unknown, encoding: BufferEncoding, callback: WriteCallback): void {
  hold({ socket: this, chunks: undefined, chunk, encoding, callback, handedOver: false });
}

function holdWritev(this: Socket, chunks: WritevChunks, callback: WriteCallback): void {
  hold({ socket: this, chunks, chunk: undefined, encoding: undefined, callback, handedOver: false });
}

/**
 * Hands a held write to its socket. A write that throws fails its own socket through its
 * callback, as a failed write does; the others still go.
 */
function handOver(write: HeldWrite): void {
  write.handedOver = true;
  try {
    if (write.chunks) writevNow.call(write.socket, write.chunks, write.callback);
    else writeNow.call(write.socket, write.chunk, write.encoding as BufferEncoding, write.callback);
  } catch (err) {
    write.callback(err as Error);
  }
}

/** Hands every write held in this turn to its socket, in order. */
function releaseHeldWrites(): void {
  const writes = held;
  held = [];
  for (const write of writes) if (!write.handedOver) handOver(write);
}

/**
 * A socket being destroyed first hands over what it holds: bytes written before `destroy()`
 * went out before the connection closed, and still do (a 400 written to a broken request's
 * socket just before it is destroyed, for one).
 */
function handOverThenDestroy(
  this: Socket,
  error: Error | null,
  callback: (error?: Error | null) => void,
): void {
  for (const write of held) if (write.socket === this && !write.handedOver) handOver(write);
  destroyNow.call(this, error, callback);
}

function holdWritesOf(socket: Socket): void {
  socket._write = holdWrite;
  socket._writev = holdWritev;
  socket._destroy = handOverThenDestroy;
}

/**
 * From now on, what `server`'s connections write leaves at the end of the event loop's turn
 * (its check phase) instead of at once: the answers to the requests read in one turn go out
 * together. A client on the same machine that sleeps between answers is then woken once per
 * turn, not once per answer, and the kernel charges each of those wake-ups to the writer
 * (docs/decisions.md#answers-leave-when-the-event-loops-turn-ends). Nothing else changes:
 * each socket's writes keep their order, backpressure and errors, and an answer waits at most
 * for the rest of the turn it was written in.
 */
export function holdWritesUntilTurnEnds(server: Server): void {
  // First among the listeners: one that writes at once must already find the socket holding.
  server.prependListener("connection", holdWritesOf);
}
