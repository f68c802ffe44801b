// `npm run service-auth-secret -- [--name gateway-service-auth]`: prints a Kubernetes Secret
// (YAML, for `kubectl apply -f -`) with fresh keys for every caller>target pair of the
// permission table, one entry per component holding only the pairs that component is part of.
// The keys go to stdout only; nothing is written or logged.
import { generateServiceAuthKeys } from "@gateway/platform";

const nameAt = process.argv.indexOf("--name");
const name = nameAt >= 0 ? process.argv[nameAt + 1] : "gateway-service-auth";
if (!name || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name)) {
  process.stderr.write("usage: service-auth-secret [--name <secret name>]\n");
  process.exit(2);
}
const keys = generateServiceAuthKeys();
const lines = [
  "apiVersion: v1",
  "kind: Secret",
  "metadata:",
  `  name: ${name}`,
  "type: Opaque",
  "stringData:",
  ...Object.entries(keys).map(([component, value]) => `  ${component}: "${value}"`),
];
process.stdout.write(`${lines.join("\n")}\n`);
