/**
 * Wraps a streaming RPC body so interceptors learn when the stream really ends (spans and
 * latency histograms must cover the whole stream, not just the moment headers are sent).
 * `run` lets a caller resume the source inside a context (e.g. the span's trace context),
 * because a stream is consumed later, outside the interceptor's own async scope.
 */
export function observeStream<T>(
  source: AsyncIterable<T>,
  onEnd: (err?: unknown) => void,
  run: <R>(fn: () => R) => R = (fn) => fn(),
): AsyncIterable<T> {
  let ended = false;
  const end = (err?: unknown) => {
    if (ended) return;
    ended = true;
    onEnd(err);
  };
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      const it = run(() => source[Symbol.asyncIterator]());
      return {
        async next() {
          try {
            const r = await run(() => it.next());
            if (r.done) end();
            return r;
          } catch (err) {
            end(err);
            throw err;
          }
        },
        async return(value?: unknown) {
          // The consumer stopped early (client went away): the stream ends here.
          end();
          if (it.return) return run(() => it.return!(value));
          return { done: true, value: undefined };
        },
        async throw(err?: unknown) {
          end(err);
          if (it.throw) return run(() => it.throw!(err));
          throw err;
        },
      };
    },
  };
}
