// The entry of ./open-loop-in-worker.ts's worker thread. On Node 20 a worker cannot register
// ES module hooks (tsx's `--import`), so the TypeScript loop is loaded through tsx's CommonJS
// hook, which works in any thread.
require("tsx/cjs/api").register();
require("./open-loop-worker.ts");
