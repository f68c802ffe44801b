// `npm run docs:config`: rewrites README.md's configuration table from the config specs.
import { readFileSync, writeFileSync } from "node:fs";
import { withConfigTable } from "./config-reference.js";
import { repoRoot } from "./service-entries.js";

const path = `${repoRoot}README.md`;
writeFileSync(path, withConfigTable(readFileSync(path, "utf8")));
process.stdout.write(`updated the configuration table in ${path}\n`);
