import { Socket } from "node:net";

/**
 * Names the file descriptor of a pipe whose other end the launcher holds. The launcher never
 * writes to it: the pipe only closes, and the kernel closes it when the launcher dies in any
 * way (SIGKILL included), which no signal handler or exit hook can promise.
 */
export const PARENT_PIPE_FD_ENV = "GATEWAY_PARENT_PIPE_FD";

/**
 * When the launcher handed this process a pipe, calls `onGone` once its end closes (the
 * launcher died or let go). Returns false when there is no such pipe (run by hand, by
 * Kubernetes…). The watch never keeps the process alive by itself.
 */
export function watchParentPipe(onGone: () => void, env: NodeJS.ProcessEnv = process.env): boolean {
  const raw = env[PARENT_PIPE_FD_ENV];
  if (raw === undefined || raw === "") return false;
  const fd = Number(raw);
  if (!Number.isInteger(fd) || fd < 3)
    throw new Error(
      `${PARENT_PIPE_FD_ENV} must be a file descriptor number >= 3, got ${JSON.stringify(raw)}`,
    );
  // Processes this one starts get their own pipe (or none), never this descriptor.
  delete env[PARENT_PIPE_FD_ENV];
  const pipe = new Socket({ fd, readable: true, writable: false });
  let gone = false;
  const fire = () => {
    if (gone) return;
    gone = true;
    onGone();
  };
  pipe.on("data", () => {});
  pipe.on("end", fire);
  pipe.on("close", fire);
  pipe.on("error", fire);
  pipe.unref();
  return true;
}
