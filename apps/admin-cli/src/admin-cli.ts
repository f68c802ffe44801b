// `npm run admin -- <command>`: the operator CLI over the edge's /admin/v1 API (see --help).
import { runAdminCli } from "./admin-commands.js";

process.exitCode = await runAdminCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  fetch: globalThis.fetch,
});
