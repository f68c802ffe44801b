/**
 * Every text of the merchant dashboard. en.ts, fr.ts and ar.ts each provide all of them (the
 * compiler checks). Functions take values the page escapes afterwards: messages are plain text,
 * never markup.
 */
export interface DashboardMessages {
  dir: "ltr" | "rtl";
  appName: string;
  skipToContent: string;
  languageSwitcher: string;
  mainNavigation: string;
  nav: {
    payments: string;
    apiKeys: string;
    webhooks: string;
    currencies: string;
    business: string;
    users: string;
    audit: string;
    account: string;
  };
  signOut: string;
  signedInAs: (email: string, role: string) => string;
  roles: { owner: string; developer: string; viewer: string };
  mode: { label: string; test: string; live: string; liveLocked: string; switchTo: (mode: string) => string };

  signIn: {
    title: string;
    email: string;
    password: string;
    submit: string;
    failed: string;
    throttled: (seconds: number) => string;
    signedOut: string;
    expired: string;
  };
  invitation: {
    title: string;
    intro: (email: string, role: string) => string;
    password: string;
    passwordHint: string;
    submit: string;
    invalid: string;
    accepted: string;
  };
  errors: {
    forbiddenTitle: string;
    forbidden: string;
    notFoundTitle: string;
    notFound: string;
    badRequestTitle: string;
    badRequest: string;
    csrfTitle: string;
    csrf: string;
    unavailableTitle: string;
    unavailable: string;
    unexpectedTitle: string;
    unexpected: string;
    reference: string;
    backToDashboard: string;
  };

  payments: {
    title: string;
    filters: string;
    status: string;
    anyStatus: string;
    reference: string;
    orderNumber: string;
    from: string;
    to: string;
    amount: string;
    apply: string;
    clear: string;
    created: string;
    empty: string;
    next: string;
    problems: {
      unknown_status: string;
      invalid_date: string;
      date_range: string;
      invalid_amount: string;
    };
  };
  statuses: Record<
    "CREATED" | "PENDING" | "PROCESSING" | "SUCCEEDED" | "FAILED" | "EXPIRED" | "CANCELED",
    string
  >;
  session: {
    title: (reference: string) => string;
    summary: string;
    amount: string;
    original: string;
    createdAt: string;
    completedAt: string;
    attempts: string;
    noAttempts: string;
    attemptNumber: string;
    card: string;
    failure: string;
    deliveries: string;
    noDeliveries: string;
    event: string;
    deliveryStatus: string;
    httpStatus: string;
    refunds: string;
    noRefunds: string;
    refundStates: { succeeded: string; waiting_on_acquirer: string; failed: string };
    unavailable: string;
    cancel: string;
    cancelConfirm: string;
    canceled: string;
    refund: string;
    refundFull: string;
    refundPartial: string;
    refundAmount: string;
    refundReason: string;
    review: string;
    reviewTitle: (amount: string) => string;
    reviewFull: string;
    confirm: string;
    back: string;
    refunded: string;
    refundProblems: {
      unknown_type: string;
      amount_required: string;
      invalid_amount: string;
      reason_too_long: string;
    };
    actionRefused: string;
  };
  currencies: {
    title: string;
    intro: string;
    current: string;
    none: string;
    currency: string;
    rate: string;
    setAt: string;
    setBy: string;
    operator: string;
    set: string;
    saved: (currency: string) => string;
    history: string;
    invalid: string;
  };
  keys: {
    title: string;
    intro: (mode: string) => string;
    key: string;
    created: string;
    expires: string;
    lastUsed: string;
    never: string;
    state: string;
    active: string;
    revoked: string;
    expired: string;
    expiresSoon: (at: string) => string;
    reveal: string;
    revealTitle: string;
    revealHint: string;
    create: string;
    createdTitle: string;
    shownOnce: string;
    roll: string;
    overlap: string;
    overlapNow: string;
    overlapHour: string;
    overlapDay: string;
    revoke: string;
    revokeConfirm: string;
    revokedDone: string;
    none: string;
    backToKeys: string;
    notRetrievable: string;
  };
  business: {
    title: string;
    intro: string;
    status: string;
    statuses: { not_submitted: string; pending: string; approved: string; rejected: string };
    reason: string;
    legalName: string;
    registrationNumber: string;
    country: string;
    address: string;
    website: string;
    submit: string;
    submitted: string;
    invalid: string;
  };
  webhooks: {
    title: string;
    endpoint: string;
    url: string;
    urlHint: string;
    saveUrl: string;
    urlSaved: string;
    noUrl: string;
    disabled: (at: string) => string;
    secret: string;
    revealSecret: string;
    secretTitle: string;
    secretHint: string;
    rotate: string;
    rotateOverlap: string;
    rotated: string;
    previousUntil: (at: string) => string;
    subscriptions: string;
    subscriptionsHint: string;
    allRefunds: string;
    saveSubscriptions: string;
    subscriptionsSaved: string;
    sendTest: string;
    testSent: string;
    log: string;
    event: string;
    anyEvent: string;
    status: string;
    anyStatus: string;
    session: string;
    attempt: string;
    http: string;
    none: string;
    detail: (id: string) => string;
    request: string;
    headers: string;
    body: string;
    response: string;
    excerpt: string;
    noExcerpt: string;
    nextRetry: string;
    attempts: string;
    resend: string;
    resent: string;
    resendAll: string;
    resendAllHint: string;
    resentCount: (n: number) => string;
    invalid: string;
  };
  audit: {
    title: string;
    intro: string;
    when: string;
    who: string;
    action: string;
    target: string;
    mode: string;
    from: string;
    none: string;
    next: string;
  };
  users: {
    title: string;
    email: string;
    role: string;
    since: string;
    invite: string;
    inviteHint: string;
    sendInvite: string;
    invitedTitle: string;
    invitedBody: (email: string) => string;
    invalid: string;
  };
  account: {
    title: string;
    changePassword: string;
    currentPassword: string;
    newPassword: string;
    save: string;
    changed: string;
    wrongPassword: string;
    weakPassword: string;
    signOutEverywhere: string;
    signOutEverywhereHint: string;
  };
}
