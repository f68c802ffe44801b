import type { Messages } from "./messages.js";

export const fr: Messages = {
  dir: "ltr",
  languageSwitcher: "Langue",
  skipToContent: "Aller au contenu principal",
  pageTitle: (merchant) => `Paiement à ${merchant}`,
  secureFooter:
    "Vous saisissez les données de votre carte sur la page sécurisée de la banque ; le marchand ne les voit jamais.",
  testMode: "Mode test : aucun paiement réel ne sera effectué.",

  payHeading: (merchant) => `Payer ${merchant}`,
  orderSummary: "Récapitulatif de la commande",
  merchant: "Marchand",
  orderNumber: "Numéro de commande",
  orderReference: "Référence de la commande",
  description: "Description",
  items: "Articles",
  itemName: "Article",
  itemQuantity: "Quantité",
  itemUnitPrice: "Prix unitaire",
  itemTotal: "Total",
  totalToPay: "Total à payer",
  originalAmount: (amount, rate) => `Montant de la commande ${amount}, converti au taux de ${rate}.`,
  payButton: (amount) => `Payer ${amount}`,
  payHint: "Vous serez redirigé vers la page sécurisée de la banque pour saisir les données de votre carte.",
  cancelButton: "Annuler et revenir chez le marchand",
  cancelButtonStay: "Annuler le paiement",
  canceledNote:
    "Vous avez quitté le paiement. Rien n'a été débité. Vous pouvez fermer cette page ou payer plus tard avec ce lien.",
  declinedTitle: "Votre paiement a été refusé",
  failureReasons: {
    card_declined: "Votre carte a été refusée. Essayez une autre carte ou contactez votre banque.",
    insufficient_funds: "Le solde de votre carte est insuffisant. Essayez une autre carte.",
    expired_card: "Votre carte a expiré. Essayez une autre carte.",
    incorrect_number: "Le numéro de carte est incorrect. Vérifiez-le et réessayez.",
    incorrect_cvc: "Le code de sécurité est incorrect. Vérifiez-le et réessayez.",
    authentication_failed:
      "L'authentification de la carte (3-D Secure) a échoué. Réessayez ou utilisez une autre carte.",
    card_velocity_exceeded: "Le plafond de dépenses de votre carte est atteint. Essayez une autre carte.",
    processor_declined: "Le prestataire de paiement a refusé le paiement. Essayez une autre carte.",
    processor_timeout: "La banque n'a pas répondu à temps. Veuillez réessayer.",
    session_timeout: "Le délai pour saisir les données de votre carte est écoulé. Veuillez réessayer.",
    unknown: "Votre paiement n'a pas abouti. Veuillez réessayer.",
  },
  attemptsLeft: (count) => (count === 1 ? "Il vous reste 1 essai." : `Il vous reste ${count} essais.`),

  processing: {
    title: "Paiement en cours",
    body: "La banque confirme votre paiement. Cela peut prendre quelques instants. Ne payez pas une seconde fois.",
  },
  checkAgain: "Vérifier à nouveau",
  succeeded: { title: "Paiement réussi", body: "Merci, votre paiement a bien été reçu." },
  succeededBody: (merchant) => `Merci, votre paiement à ${merchant} a bien été reçu.`,
  returnToMerchant: (merchant) => `Revenir sur ${merchant}`,
  continueToMerchant: "Continuer vers le site du marchand",
  failed: {
    title: "Échec du paiement",
    body: "Votre paiement n'a pas pu aboutir et aucune nouvelle tentative n'est possible pour cette commande.",
  },
  closed: {
    title: "Ce paiement est clos",
    body: "Cette commande ne peut plus être payée ici : elle a été annulée ou a expiré. Contactez le marchand si vous souhaitez toujours payer.",
  },
  linkExpired: {
    title: "Ce lien de paiement a expiré",
    body: "Pour votre sécurité, les liens de paiement ont une durée de validité limitée. Retournez sur le site du marchand pour obtenir un nouveau lien de paiement.",
  },
  notFound: {
    title: "Page de paiement introuvable",
    body: "Ce lien de paiement n'est pas valide. Vérifiez le lien ou retournez sur le site du marchand.",
  },
  csrfRejected: {
    title: "Votre demande n'a pas pu être vérifiée",
    body: "Pour votre sécurité, ce formulaire ne peut être envoyé que depuis sa page de paiement. Retournez sur la page de paiement et réessayez.",
  },
  confirming: {
    title: "Nous confirmons votre paiement",
    body: "La banque n'a pas encore répondu. Cette page vérifie à nouveau automatiquement dans quelques secondes. Ne payez pas une seconde fois.",
  },
  merchantUnavailable: {
    title: "Le paiement par carte est indisponible",
    body: "Ce marchand ne peut pas accepter de paiement par carte pour le moment. Aucun paiement n'a été effectué. Veuillez contacter le marchand.",
  },
  processorUnavailable: {
    title: "La banque ne répond pas",
    body: "Nous n'avons pas pu joindre le prestataire de paiement. Aucun paiement n'a été effectué. Veuillez réessayer dans un instant.",
  },
  alreadyClosed: {
    title: "Ce paiement est déjà terminé ou clos",
    body: "Retournez sur la page de paiement pour voir son état.",
  },
  cannotStart: {
    title: "Le paiement ne peut pas démarrer",
    body: "Cette commande ne peut pas être payée pour le moment. Retournez sur la page de paiement pour voir son état, ou revenez chez le marchand.",
  },
  tooManyRequests: { title: "Trop de demandes", body: "Veuillez patienter un instant, puis réessayer." },
  serviceUnavailable: {
    title: "Service momentanément indisponible",
    body: "Le service de paiement est momentanément indisponible. Veuillez réessayer dans un instant.",
  },
  badRequest: {
    title: "La demande n'a pas pu être comprise",
    body: "Retournez sur la page de paiement et réessayez.",
  },
  unexpected: {
    title: "Une erreur est survenue",
    body: "Une erreur inattendue s'est produite. Veuillez réessayer dans un instant. Si elle se reproduit, contactez le marchand en indiquant la référence ci-dessous.",
  },
  reference: "Référence",
  backToPayment: "Retour à la page de paiement",
  tryAgain: "Réessayer",
};
