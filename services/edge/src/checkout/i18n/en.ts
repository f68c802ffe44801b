import type { Messages } from "./messages.js";

export const en: Messages = {
  dir: "ltr",
  languageSwitcher: "Language",
  skipToContent: "Skip to main content",
  pageTitle: (merchant) => `Payment to ${merchant}`,
  secureFooter: "You enter your card details on the bank's secure page; the merchant never sees them.",
  testMode: "Test mode: no real payment will be taken.",

  payHeading: (merchant) => `Pay ${merchant}`,
  orderSummary: "Order summary",
  merchant: "Merchant",
  orderNumber: "Order number",
  orderReference: "Order reference",
  description: "Description",
  items: "Items",
  itemName: "Item",
  itemQuantity: "Quantity",
  itemUnitPrice: "Unit price",
  itemTotal: "Total",
  totalToPay: "Total to pay",
  originalAmount: (amount, rate) => `Order amount ${amount}, converted at the rate ${rate}.`,
  payButton: (amount) => `Pay ${amount}`,
  payHint: "You will be taken to the bank's secure page to enter your card details.",
  cancelButton: "Cancel and return to the merchant",
  cancelButtonStay: "Cancel payment",
  canceledNote:
    "You left the payment. Nothing was charged. You can close this page or pay later with this link.",
  declinedTitle: "Your payment was declined",
  failureReasons: {
    card_declined: "Your card was declined. Try another card or contact your bank.",
    insufficient_funds: "Your card has insufficient funds. Try another card.",
    expired_card: "Your card has expired. Try another card.",
    incorrect_number: "The card number is incorrect. Check it and try again.",
    incorrect_cvc: "The security code is incorrect. Check it and try again.",
    authentication_failed: "The card authentication (3-D Secure) failed. Try again or use another card.",
    card_velocity_exceeded: "Your card's spending limit has been reached. Try another card.",
    processor_declined: "The payment provider refused the payment. Try another card.",
    processor_timeout: "The bank did not answer in time. Please try again.",
    session_timeout: "The time to enter your card details ran out. Please try again.",
    unknown: "Your payment was not completed. Please try again.",
  },
  attemptsLeft: (count) => (count === 1 ? "You can try 1 more time." : `You can try ${count} more times.`),

  processing: {
    title: "Payment in progress",
    body: "The bank is confirming your payment. This can take a few moments. Do not pay again.",
  },
  checkAgain: "Check again",
  succeeded: { title: "Payment successful", body: "Thank you, your payment has been received." },
  succeededBody: (merchant) => `Thank you, your payment to ${merchant} has been received.`,
  returnToMerchant: (merchant) => `Return to ${merchant}`,
  continueToMerchant: "Continue to the merchant",
  failed: {
    title: "Payment failed",
    body: "Your payment could not be completed and no further attempt is possible for this order.",
  },
  closed: {
    title: "This payment is closed",
    body: "This order can no longer be paid here: it was canceled or it expired. Contact the merchant if you still wish to pay.",
  },
  linkExpired: {
    title: "This payment link has expired",
    body: "For your security, payment links are valid for a limited time. Go back to the merchant's website to get a new payment link.",
  },
  notFound: {
    title: "Payment page not found",
    body: "This payment link is not valid. Check the link, or go back to the merchant's website.",
  },
  csrfRejected: {
    title: "Your request could not be verified",
    body: "For your security, this form can only be sent from the payment page it belongs to. Go back to the payment page and try again.",
  },
  confirming: {
    title: "We are confirming your payment",
    body: "The bank has not answered yet. This page checks again automatically in a few seconds. Do not pay again.",
  },
  merchantUnavailable: {
    title: "Card payments are unavailable",
    body: "This merchant cannot accept card payments at the moment. No payment was taken. Please contact the merchant.",
  },
  processorUnavailable: {
    title: "The bank is not responding",
    body: "We could not reach the payment provider. No payment was taken. Please try again in a moment.",
  },
  alreadyClosed: {
    title: "This payment is already complete or closed",
    body: "Go back to the payment page to see its status.",
  },
  cannotStart: {
    title: "The payment cannot be started",
    body: "This order cannot be paid right now. Go back to the payment page to see its status, or return to the merchant.",
  },
  tooManyRequests: { title: "Too many requests", body: "Please wait a moment, then try again." },
  serviceUnavailable: {
    title: "Service temporarily unavailable",
    body: "The payment service is temporarily unavailable. Please try again in a moment.",
  },
  badRequest: {
    title: "The request could not be understood",
    body: "Go back to the payment page and try again.",
  },
  unexpected: {
    title: "Something went wrong",
    body: "An unexpected error occurred. Please try again in a moment. If it happens again, contact the merchant and quote the reference below.",
  },
  reference: "Reference",
  backToPayment: "Back to the payment page",
  tryAgain: "Try again",
};
