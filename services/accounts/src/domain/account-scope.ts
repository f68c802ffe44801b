/** The merchant account and mode a request acts for, as resolved from its API key. */
export interface AccountScope {
  merchantId: string;
  livemode: boolean;
}
