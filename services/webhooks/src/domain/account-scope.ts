/** The merchant account and mode a webhook endpoint, event or delivery belongs to. */
export interface AccountScope {
  merchantId: string;
  livemode: boolean;
}

export function sameScope(a: AccountScope, b: AccountScope): boolean {
  return a.merchantId === b.merchantId && a.livemode === b.livemode;
}

export function modeName(scope: AccountScope): "live" | "test" {
  return scope.livemode ? "live" : "test";
}
