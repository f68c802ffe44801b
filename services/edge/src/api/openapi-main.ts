// `npm run docs:openapi`: writes docs/api/openapi.json from the route schemas.
import { writeFileSync } from "node:fs";
import { openApiText } from "./openapi.js";

const target = new URL("../../../../docs/api/openapi.json", import.meta.url);
writeFileSync(target, openApiText());
process.stdout.write(`wrote ${target.pathname}\n`);
