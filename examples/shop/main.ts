import { startShop } from "./shop.js";

// `npx tsx examples/shop/main.ts` with GATEWAY_URL, GATEWAY_API_KEY and WEBHOOK_SECRET set.
const required = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`${name} is required (see examples/shop/README.md)\n`);
    process.exit(2);
  }
  return value;
};

const shop = await startShop({
  gatewayUrl: process.env.GATEWAY_URL ?? "http://127.0.0.1:8080",
  apiKey: required("GATEWAY_API_KEY"),
  webhookSecret: required("WEBHOOK_SECRET"),
  port: Number(process.env.PORT ?? 3000),
});
process.stdout.write(
  `shop on ${shop.url}: POST /checkout {"amount":"12.500"}, webhooks at ${shop.url}/hooks\n`,
);
