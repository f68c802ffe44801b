/** One server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface ServerSentEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * Reads a `text/event-stream` body: messages end at a blank line, `data:` lines join with "\n",
 * comment lines (`: ping`) are reported through `onComment` and otherwise ignored.
 */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
  onComment?: (text: string) => void,
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let current: { id?: string; event?: string; data: string[] } = { data: [] };
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.search(/\r\n|\r|\n/);
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      newline = buffer.search(/\r\n|\r|\n/);
      if (line === "") {
        if (current.data.length > 0)
          yield { id: current.id, event: current.event ?? "message", data: current.data.join("\n") };
        current = { data: [] };
        continue;
      }
      if (line.startsWith(":")) {
        onComment?.(line.slice(1).trim());
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") current.data.push(value);
      else if (field === "event") current.event = value;
      else if (field === "id") current.id = value;
    }
  }
}
