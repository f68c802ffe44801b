import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { EPG_ACTION, EPG_ORDER_STATUS } from "@gateway/acquirer";
import { fromMinorUnits } from "@gateway/money";
import type { Clock } from "@gateway/platform";
import { validateCardInput } from "./card-input.js";
import { renderCardForm, renderNotice } from "./card-page-html.js";
import { messagesFor, type PageMessages, pageLanguage } from "./card-page-messages.js";
import { currencyByNumeric } from "./currency-by-numeric.js";
import { BodyTooLargeError, readForm, redirectSeeOther, sendHtml } from "./http-io.js";
import type { SimulatorOrder } from "./simulator-order.js";
import type { SimulatorOrderBook } from "./simulator-order-book.js";

function amountText(order: SimulatorOrder): string {
  const currency = currencyByNumeric(order.currencyNumeric);
  return currency === undefined
    ? `${order.amountMinor} (${order.currencyNumeric})`
    : `${fromMinorUnits(order.amountMinor, currency.code)} ${currency.code}`;
}

function origin(url: string): string {
  return new URL(url).origin;
}

function withOrderId(url: string, acquirerOrderId: string): string {
  const target = new URL(url);
  target.searchParams.set("orderId", acquirerOrderId);
  return target.toString();
}

/** The message and onward link for an order that no longer takes a card. */
function closedOrderNotice(order: SimulatorOrder, m: PageMessages): { message: string; continueUrl: string } {
  switch (order.orderStatus) {
    case EPG_ORDER_STATUS.declined:
      return {
        message: order.actionCode === EPG_ACTION.sessionExpired ? m.expired : m.declined,
        continueUrl: withOrderId(order.failUrl, order.acquirerOrderId),
      };
    case EPG_ORDER_STATUS.reversed:
      return { message: m.reversed, continueUrl: withOrderId(order.failUrl, order.acquirerOrderId) };
    default:
      return { message: m.alreadyPaid, continueUrl: withOrderId(order.returnUrl, order.acquirerOrderId) };
  }
}

/**
 * GET shows the card form for a payable order (or why it is not payable); POST checks the
 * card, "processes" it and sends the browser on to the merchant with 303.
 */
export function createCardPageHandler(book: SimulatorOrderBook, clock: Clock) {
  return async function handleCardPage(
    req: IncomingMessage,
    res: ServerResponse,
    acquirerOrderId: string,
  ): Promise<void> {
    const styleNonce = randomBytes(16).toString("base64");
    const order = book.find(acquirerOrderId);
    if (order === undefined) {
      // Drain a posted body so the connection can be reused, then answer.
      if (req.method === "POST") await readForm(req).catch(() => undefined);
      const html = renderNotice({ language: "en", styleNonce, message: messagesFor("en").unknownOrder });
      sendHtml(res, 404, html, { styleNonce, formTargets: [] });
      return;
    }

    const language = pageLanguage(order.language);
    const m = messagesFor(language);
    const policy = {
      styleNonce,
      formTargets: [...new Set([origin(order.returnUrl), origin(order.failUrl)])],
    };
    const formView = {
      language,
      styleNonce,
      action: order.formUrl,
      orderNumber: order.orderNumber,
      amountText: amountText(order),
      ...(order.description === undefined ? {} : { description: order.description }),
    };

    if (req.method === "GET" || req.method === "HEAD") {
      if (order.orderStatus === EPG_ORDER_STATUS.registered) {
        sendHtml(res, 200, renderCardForm(formView), policy);
      } else {
        sendHtml(res, 200, renderNotice({ language, styleNonce, ...closedOrderNotice(order, m) }), policy);
      }
      return;
    }

    let form: URLSearchParams;
    try {
      form = await readForm(req);
    } catch (err) {
      if (!(err instanceof BodyTooLargeError)) throw err;
      sendHtml(res, 413, renderNotice({ language, styleNonce, message: m.tooLarge }), policy);
      return;
    }
    const input = validateCardInput(form, clock.now());
    if (!input.ok) {
      const html = renderCardForm({
        ...formView,
        errors: input.errors,
        cardholderName: input.cardholderName,
        expiry: input.expiry,
      });
      sendHtml(res, 422, html, policy);
      return;
    }
    const result = book.pay(acquirerOrderId, input.card);
    if (result === undefined || result.kind === "not_payable") {
      sendHtml(res, 409, renderNotice({ language, styleNonce, ...closedOrderNotice(order, m) }), policy);
      return;
    }
    redirectSeeOther(res, result.redirectTo);
  };
}
