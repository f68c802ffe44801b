// Public surface of @gateway/money: ISO 4217 table, strict amount and rate parsing, minor units,
// conversion to the settlement currency. All arithmetic on decimal.js through `D`.

export {
  convertToSettlement,
  exceedsMaximum,
  MAX_AMOUNT_TND,
  percentOf,
} from "./conversion.js";
export {
  type CurrencyInfo,
  currencyInfo,
  isCurrencyCode,
  SETTLEMENT_CURRENCY,
} from "./currencies.js";
export { D, type Dec } from "./decimal.js";
export { formatAmount, fromMinorUnits, toMinorUnits } from "./minor-units.js";
export { type AmountErrorCode, type AmountParse, parseAmount } from "./parse-amount.js";
export { formatRate, parseRate, type RateParse } from "./rate.js";
export { minorFromStored } from "./stored-minor.js";
