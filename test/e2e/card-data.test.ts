import { type DistributedGateway, serviceEntries, startDistributedGateway } from "@gateway/launcher";
import { waitFor } from "@gateway/testkit";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { BSON, MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MerchantApi, merchantApi } from "./support/http.js";
import { payWithCard } from "./support/pay-with-card.js";

const APPROVED_PAN = "4242424242424242";
const DECLINED_PAN = "4000000000000002";
const CVC = "737";
const EVENTS_STREAM = "GATEWAY_EVENTS";

/** Every way a full card number could be written down: digits only, or grouped by four. */
const PAN_FORMS = [APPROVED_PAN, DECLINED_PAN].flatMap((pan) => [
  pan,
  pan.replace(/(\d{4})(?=\d)/g, "$1 "),
  pan.replace(/(\d{4})(?=\d)/g, "$1-"),
]);

/**
 * Places the CVC could hide in text: a standalone "737" token that is not a JSON number (a
 * number such as a response time may be 737 by chance; a CVC is sent and kept as text), or any
 * member named like a security code, whatever its value.
 */
function cvcFindings(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?<![0-9A-Za-z.])737(?![0-9A-Za-z.])/g)) {
    const before = text.slice(Math.max(0, match.index - 2), match.index);
    if (/:\s?$/.test(before) && !/"$/.test(before)) continue;
    found.push(text.slice(Math.max(0, match.index - 60), match.index + 60));
  }
  for (const match of text.matchAll(/["']?(cvc|cvv2?|csc|security_?code|card_?code)["']?\s*[:=]/gi)) {
    found.push(text.slice(Math.max(0, match.index - 60), match.index + 60));
  }
  return found;
}

function panFindings(text: string): string[] {
  return PAN_FORMS.flatMap((form) => (text.includes(form) ? [form] : []));
}

// After real payments (an approval and a decline, both with CVC 737) the full card numbers and
// the CVC must be nowhere the gateway keeps data: databases, logs, the event stream.
describe("card data never reaches storage, logs or events (distributed mode)", () => {
  let gw: DistributedGateway;
  let api: MerchantApi;
  const databasePrefix = `e2e_card_${Date.now().toString(36)}`;
  const sessionIds: string[] = [];

  beforeAll(async () => {
    // Its own NATS server (no natsUrl): the stream read below holds only this stack's events.
    gw = await startDistributedGateway({ mongodbUrl: process.env.MONGODB_URL, databasePrefix });
    api = merchantApi(gw.edgeUrl, gw.demoTestKey!);

    const paid = await api.createSession({
      merchant_reference: "card-data-paid",
      amount: "42.000",
      return_url: "https://shop.example/ok",
    });
    expect(paid.status, paid.text).toBe(201);
    await payWithCard(paid.body.checkout_url, { number: APPROVED_PAN, cvc: CVC, name: "Amal Ben Salah" });
    const declined = await api.createSession({
      merchant_reference: "card-data-declined",
      amount: "17.500",
      max_attempts: 1,
    });
    expect(declined.status, declined.text).toBe(201);
    await payWithCard(declined.body.checkout_url, { number: DECLINED_PAN, cvc: CVC, name: "Amal Ben Salah" });
    sessionIds.push(paid.body.id, declined.body.id);

    expect((await api.getSession(paid.body.id)).body).toMatchObject({
      status: "SUCCEEDED",
      attempts: [{ card_last_four: "4242" }],
    });
    expect((await api.getSession(declined.body.id)).body).toMatchObject({
      status: "FAILED",
      attempts: [{ failure_code: "card_declined" }],
    });
  });

  afterAll(async () => {
    await gw?.stop();
    if (gw) {
      const client = await MongoClient.connect(gw.mongodbUrl);
      try {
        const { databases } = await client.db("admin").admin().listDatabases();
        for (const { name } of databases)
          if (name.startsWith(`${databasePrefix}_`)) await client.db(name).dropDatabase();
      } finally {
        await client.close();
      }
    }
  });

  it("is not in any MongoDB database of the stack", async () => {
    const client = await MongoClient.connect(gw.mongodbUrl);
    try {
      const { databases } = await client.db("admin").admin().listDatabases();
      const ours = databases.map((d) => d.name).filter((name) => name.startsWith(`${databasePrefix}_`));
      expect(ours.sort()).toEqual(
        expect.arrayContaining([`${databasePrefix}_accounts`, `${databasePrefix}_sessions`]),
      );
      const dumps: string[] = [];
      for (const name of ours) {
        for (const { name: collection } of await client.db(name).listCollections().toArray()) {
          const documents = await client.db(name).collection(collection).find({}).toArray();
          dumps.push(`${name}.${collection}\n${documents.map((d) => BSON.EJSON.stringify(d)).join("\n")}`);
        }
      }
      const everything = dumps.join("\n");
      // Not vacuous: both sessions are stored, with the last four of the paid card.
      for (const id of sessionIds) expect(everything).toContain(id);
      expect(everything).toContain("4242");
      expect(panFindings(everything)).toEqual([]);
      expect(cvcFindings(everything)).toEqual([]);
      expect(everything).not.toContain("424242");
    } finally {
      await client.close();
    }
  });

  it("is not in any process's logs", () => {
    const processes = [
      ...Object.values(gw.processes).filter((p) => p !== gw.processes.edge),
      ...gw.edgeProcesses,
    ];
    // Every process of the stack is searched, whatever the stack runs.
    expect(processes.map((p) => p.name).sort()).toEqual(Object.keys(serviceEntries).sort());
    for (const process of processes) {
      const logs = process.logs();
      expect(logs.length, `${process.name} logged nothing`).toBeGreaterThan(0);
      expect(panFindings(logs), process.name).toEqual([]);
      expect(cvcFindings(logs), process.name).toEqual([]);
    }
    // Not vacuous: the edge logged the checkout requests of these payments.
    expect(gw.processes.edge.logs()).toContain("/checkout/");
  });

  it("is not in any message of the NATS event stream", async () => {
    const nc = await connect({ servers: gw.natsUrl });
    try {
      const jsm = await jetstreamManager(nc);
      // Events are published after the settlement commits: wait until both sessions' are there.
      const messages = await waitFor(
        async () => {
          const info = await jsm.streams.info(EVENTS_STREAM);
          const read: { subject: string; bytes: Buffer }[] = [];
          for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
            const message = await jsm.streams.getMessage(EVENTS_STREAM, { seq }).catch(() => null);
            if (!message) continue;
            const headers = message.header
              ? [...message.header.keys()]
                  .map((k) => `${k}: ${message.header!.values(k).join(",")}`)
                  .join("\n")
              : "";
            read.push({
              subject: message.subject,
              bytes: Buffer.concat([
                Buffer.from(`${message.subject}\n${headers}\n`),
                Buffer.from(message.data),
              ]),
            });
          }
          const text = read.map((m) => m.bytes.toString("latin1")).join("\n");
          return sessionIds.every((id) => text.includes(id)) ? read : undefined;
        },
        {
          timeoutMs: 15_000,
          intervalMs: 500,
          message: "the events of both sessions never reached the stream",
        },
      );
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) {
        const raw = message.bytes.toString("latin1");
        expect(panFindings(raw), message.subject).toEqual([]);
        expect(cvcFindings(raw), message.subject).toEqual([]);
      }
    } finally {
      await nc.close();
    }
  });
});
