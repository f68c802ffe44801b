import type { CardInputError } from "./card-input.js";

export type PageLanguage = "en" | "fr" | "ar";

export interface PageMessages {
  dir: "ltr" | "rtl";
  title: string;
  testMode: string;
  orderNumber: string;
  amount: string;
  description: string;
  cardholderName: string;
  cardNumber: string;
  cardNumberHint: string;
  expiry: string;
  expiryHint: string;
  cvc: string;
  cvcHint: string;
  pay: (amount: string) => string;
  errorSummary: string;
  errors: Record<CardInputError, string>;
  alreadyPaid: string;
  declined: string;
  expired: string;
  reversed: string;
  unknownOrder: string;
  continueToMerchant: string;
  tooLarge: string;
}

const MESSAGES: Record<PageLanguage, PageMessages> = {
  en: {
    dir: "ltr",
    title: "Card payment",
    testMode: "Test mode: EPG simulator. No real card is charged; use a documented test card.",
    orderNumber: "Order number",
    amount: "Amount",
    description: "Description",
    cardholderName: "Name on card",
    cardNumber: "Card number",
    cardNumberHint: "The 13 to 19 digits on the front of the card.",
    expiry: "Expiry date",
    expiryHint: "Month and year, as MM/YY.",
    cvc: "Security code (CVC)",
    cvcHint: "The 3 digits on the back of the card (4 on the front for American Express).",
    pay: (amount) => `Pay ${amount}`,
    errorSummary: "The payment was not sent. Please correct the following:",
    errors: {
      name_required: "Enter the name shown on the card.",
      number_invalid: "Enter a valid card number.",
      expiry_invalid: "Enter the expiry date as MM/YY.",
      expiry_past: "This card has expired. Use a card with a future expiry date.",
      cvc_invalid: "Enter the card's security code.",
    },
    alreadyPaid: "This order has already been paid.",
    declined: "This payment was declined.",
    expired: "The time to pay this order has run out.",
    reversed: "This payment was cancelled.",
    unknownOrder: "This payment page does not exist or is no longer available.",
    continueToMerchant: "Return to the merchant",
    tooLarge: "The form was too large.",
  },
  fr: {
    dir: "ltr",
    title: "Paiement par carte",
    testMode:
      "Mode test : simulateur EPG. Aucune carte réelle n'est débitée ; utilisez une carte de test documentée.",
    orderNumber: "Numéro de commande",
    amount: "Montant",
    description: "Description",
    cardholderName: "Nom sur la carte",
    cardNumber: "Numéro de carte",
    cardNumberHint: "Les 13 à 19 chiffres au recto de la carte.",
    expiry: "Date d'expiration",
    expiryHint: "Mois et année, au format MM/AA.",
    cvc: "Code de sécurité (CVC)",
    cvcHint: "Les 3 chiffres au verso de la carte (4 au recto pour American Express).",
    pay: (amount) => `Payer ${amount}`,
    errorSummary: "Le paiement n'a pas été envoyé. Veuillez corriger :",
    errors: {
      name_required: "Saisissez le nom figurant sur la carte.",
      number_invalid: "Saisissez un numéro de carte valide.",
      expiry_invalid: "Saisissez la date d'expiration au format MM/AA.",
      expiry_past: "Cette carte est expirée. Utilisez une carte dont la date d'expiration est future.",
      cvc_invalid: "Saisissez le code de sécurité de la carte.",
    },
    alreadyPaid: "Cette commande a déjà été payée.",
    declined: "Ce paiement a été refusé.",
    expired: "Le délai de paiement de cette commande est écoulé.",
    reversed: "Ce paiement a été annulé.",
    unknownOrder: "Cette page de paiement n'existe pas ou n'est plus disponible.",
    continueToMerchant: "Retourner chez le marchand",
    tooLarge: "Le formulaire est trop volumineux.",
  },
  ar: {
    dir: "rtl",
    title: "الدفع بالبطاقة",
    testMode: "وضع الاختبار: محاكي EPG. لا تُخصم أي بطاقة حقيقية؛ استخدم بطاقة اختبار موثّقة.",
    orderNumber: "رقم الطلب",
    amount: "المبلغ",
    description: "الوصف",
    cardholderName: "الاسم على البطاقة",
    cardNumber: "رقم البطاقة",
    cardNumberHint: "الأرقام من 13 إلى 19 على وجه البطاقة.",
    expiry: "تاريخ الانتهاء",
    expiryHint: "الشهر والسنة بصيغة MM/YY.",
    cvc: "رمز الأمان (CVC)",
    cvcHint: "الأرقام الثلاثة على ظهر البطاقة (4 على الوجه لبطاقات American Express).",
    pay: (amount) => `ادفع ${amount}`,
    errorSummary: "لم يُرسل الدفع. يرجى تصحيح ما يلي:",
    errors: {
      name_required: "أدخل الاسم المكتوب على البطاقة.",
      number_invalid: "أدخل رقم بطاقة صالحًا.",
      expiry_invalid: "أدخل تاريخ الانتهاء بصيغة MM/YY.",
      expiry_past: "انتهت صلاحية هذه البطاقة. استخدم بطاقة صالحة.",
      cvc_invalid: "أدخل رمز أمان البطاقة.",
    },
    alreadyPaid: "تم دفع هذا الطلب من قبل.",
    declined: "تم رفض هذا الدفع.",
    expired: "انتهت مهلة دفع هذا الطلب.",
    reversed: "تم إلغاء هذا الدفع.",
    unknownOrder: "صفحة الدفع هذه غير موجودة أو لم تعد متاحة.",
    continueToMerchant: "العودة إلى التاجر",
    tooLarge: "النموذج كبير جدًا.",
  },
};

/** The page's language: the order's `language` when we have it, else English. */
export function pageLanguage(language: string | undefined): PageLanguage {
  return language === "fr" || language === "ar" ? language : "en";
}

export function messagesFor(language: PageLanguage): PageMessages {
  return MESSAGES[language];
}
