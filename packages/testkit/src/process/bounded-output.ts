/** Keeps the last `limitBytes` of a process's output in memory, so a chatty process cannot exhaust it. */
export class BoundedOutput {
  private chunks: Buffer[] = [];
  private size = 0;
  private droppedBytes = 0;

  constructor(private readonly limitBytes: number) {}

  append(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limitBytes && this.chunks.length > 0) {
      const overflow = this.size - this.limitBytes;
      const first = this.chunks[0] as Buffer;
      if (first.length <= overflow) {
        this.chunks.shift();
        this.size -= first.length;
        this.droppedBytes += first.length;
      } else {
        this.chunks[0] = first.subarray(overflow);
        this.size -= overflow;
        this.droppedBytes += overflow;
      }
    }
  }

  toString(): string {
    const text = Buffer.concat(this.chunks).toString("utf8");
    return this.droppedBytes > 0 ? `[… ${this.droppedBytes} earlier bytes dropped]\n${text}` : text;
  }
}
