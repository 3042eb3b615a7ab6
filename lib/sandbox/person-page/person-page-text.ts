// Wording of the person's verification page in the three languages of the service (contract §8),
// including readable labels for the predefined purposes, the simulated outcomes and the
// failure reasons. Plain data: no server-only imports (the type imports are erased).
import type { Language } from '@/lib/sandbox/api/create-verification-input';
import type { FailureReason, VerificationMethod } from '@/lib/sandbox/records/lifecycle';

/** Why a form on the page was refused; carried back to the page in its address as a code. */
export type PersonActionError = 'name' | 'method' | 'reason';

export type PersonPageText = {
  sandboxBanner: string;
  heading: string;
  requestedBy: string;
  requestedFor: string;
  purpose: string;
  validUntil: string;
  simulateHeading: string;
  simulateIntro: string;
  completeHeading: string;
  identifiedNameLabel: string;
  identifiedNameHint: string;
  completeWith: Record<VerificationMethod, string>;
  failHeading: string;
  reasonLegend: string;
  reasons: Record<FailureReason, string>;
  failButton: string;
  errors: Record<PersonActionError, string>;
  completedHeading: string;
  completedBody: string;
  failedHeading: string;
  failedReason: string;
  failedBody: string;
  expiredHeading: string;
  expiredBody: string;
  closedHeading: string;
  closedBody: string;
};

const TEXT: Record<Language, PersonPageText> = {
  en: {
    sandboxBanner: 'Sandbox: this is a test environment. No identity document is checked and nothing is real.',
    heading: 'Verify your identity',
    requestedBy: 'Requested by',
    requestedFor: 'For',
    purpose: 'Purpose',
    validUntil: 'This link can be used until',
    simulateHeading: 'Simulate the outcome',
    simulateIntro:
      'In the real service the person would now show an identity document or use an identity provider. Here you choose what happens.',
    completeHeading: 'Complete the verification',
    identifiedNameLabel: 'Name read from the identity document',
    identifiedNameHint: 'The requested name is filled in; change it to simulate a document with another name.',
    completeWith: {
      passport: 'Complete with a passport',
      id_card: 'Complete with an identity card',
      drivers_license: "Complete with a driver's licence",
      itsme: 'Complete with a mobile identity app (itsme)',
      bank_id: 'Complete with a bank identity service',
    },
    failHeading: 'Fail the verification',
    reasonLegend: 'Reason for the failure',
    reasons: {
      document_expired: 'Document expired',
      name_mismatch: 'Name mismatch',
      person_declined: 'Person declined',
      document_unreadable: 'Document unreadable',
      other: 'Other reason',
    },
    failButton: 'Fail the verification',
    errors: {
      name: 'Enter the name read from the identity document (at most 200 characters).',
      method: 'Choose one of the verification methods listed.',
      reason: 'Choose a reason for the failure.',
    },
    completedHeading: 'Thank you — your identity has been verified',
    completedBody: 'There is nothing more to do. You can close this page.',
    failedHeading: 'The verification has failed',
    failedReason: 'Reason',
    failedBody: 'The organisation that asked will be told. You can close this page.',
    expiredHeading: 'This link has expired',
    expiredBody: 'The time to complete this verification has passed. Ask the organisation that sent it for a new link.',
    closedHeading: 'This verification is closed',
    closedBody: 'This verification request has already been completed or closed. There is nothing more to do.',
  },
  fr: {
    sandboxBanner: "Bac à sable : ceci est un environnement de test. Aucune pièce d'identité n'est vérifiée et rien n'est réel.",
    heading: 'Vérifiez votre identité',
    requestedBy: 'Demandé par',
    requestedFor: 'Pour',
    purpose: 'Finalité',
    validUntil: "Ce lien peut être utilisé jusqu'au",
    simulateHeading: 'Simuler le résultat',
    simulateIntro:
      "Dans le vrai service, la personne présenterait maintenant une pièce d'identité ou utiliserait un fournisseur d'identité. Ici, vous choisissez ce qui se passe.",
    completeHeading: 'Réussir la vérification',
    identifiedNameLabel: "Nom lu sur la pièce d'identité",
    identifiedNameHint: 'Le nom demandé est prérempli ; modifiez-le pour simuler une pièce à un autre nom.',
    completeWith: {
      passport: 'Réussir avec un passeport',
      id_card: "Réussir avec une carte d'identité",
      drivers_license: 'Réussir avec un permis de conduire',
      itsme: "Réussir avec une application d'identité mobile (itsme)",
      bank_id: "Réussir avec un service d'identité bancaire",
    },
    failHeading: 'Faire échouer la vérification',
    reasonLegend: "Motif de l'échec",
    reasons: {
      document_expired: 'Document expiré',
      name_mismatch: 'Nom différent',
      person_declined: 'Refus de la personne',
      document_unreadable: 'Document illisible',
      other: 'Autre motif',
    },
    failButton: 'Faire échouer la vérification',
    errors: {
      name: "Indiquez le nom lu sur la pièce d'identité (200 caractères au plus).",
      method: "Choisissez l'une des méthodes de vérification proposées.",
      reason: "Choisissez un motif d'échec.",
    },
    completedHeading: 'Merci — votre identité a été vérifiée',
    completedBody: "Vous n'avez plus rien à faire. Vous pouvez fermer cette page.",
    failedHeading: 'La vérification a échoué',
    failedReason: 'Motif',
    failedBody: "L'organisation qui l'a demandée en sera informée. Vous pouvez fermer cette page.",
    expiredHeading: 'Ce lien a expiré',
    expiredBody: "Le délai pour effectuer cette vérification est dépassé. Demandez un nouveau lien à l'organisation qui vous l'a envoyé.",
    closedHeading: 'Cette vérification est clôturée',
    closedBody: "Cette demande de vérification a déjà été traitée ou clôturée. Vous n'avez plus rien à faire.",
  },
  nl: {
    sandboxBanner: 'Sandbox: dit is een testomgeving. Er wordt geen identiteitsdocument gecontroleerd en niets is echt.',
    heading: 'Bevestig uw identiteit',
    requestedBy: 'Aangevraagd door',
    requestedFor: 'Voor',
    purpose: 'Doel',
    validUntil: 'Deze link kan gebruikt worden tot',
    simulateHeading: 'Simuleer het resultaat',
    simulateIntro:
      'In de echte dienst zou de persoon nu een identiteitsdocument tonen of een identiteitsaanbieder gebruiken. Hier kiest u wat er gebeurt.',
    completeHeading: 'Verificatie laten slagen',
    identifiedNameLabel: 'Naam gelezen van het identiteitsdocument',
    identifiedNameHint: 'De gevraagde naam is ingevuld; wijzig hem om een document op een andere naam te simuleren.',
    completeWith: {
      passport: 'Voltooien met een paspoort',
      id_card: 'Voltooien met een identiteitskaart',
      drivers_license: 'Voltooien met een rijbewijs',
      itsme: 'Voltooien met een mobiele identiteitsapp (itsme)',
      bank_id: 'Voltooien met een bankidentiteitsdienst',
    },
    failHeading: 'Verificatie laten mislukken',
    reasonLegend: 'Reden van de mislukking',
    reasons: {
      document_expired: 'Document verlopen',
      name_mismatch: 'Naam komt niet overeen',
      person_declined: 'Persoon weigerde',
      document_unreadable: 'Document onleesbaar',
      other: 'Andere reden',
    },
    failButton: 'Verificatie laten mislukken',
    errors: {
      name: 'Vul de naam in die van het identiteitsdocument gelezen werd (hoogstens 200 tekens).',
      method: 'Kies een van de voorgestelde verificatiemethoden.',
      reason: 'Kies een reden voor de mislukking.',
    },
    completedHeading: 'Bedankt — uw identiteit is bevestigd',
    completedBody: 'U hoeft niets meer te doen. U kunt deze pagina sluiten.',
    failedHeading: 'De verificatie is mislukt',
    failedReason: 'Reden',
    failedBody: 'De organisatie die erom vroeg, wordt op de hoogte gebracht. U kunt deze pagina sluiten.',
    expiredHeading: 'Deze link is verlopen',
    expiredBody: 'De tijd om deze verificatie uit te voeren is voorbij. Vraag de organisatie die ze stuurde om een nieuwe link.',
    closedHeading: 'Deze verificatie is afgesloten',
    closedBody: 'Deze verificatieaanvraag is al afgerond of afgesloten. U hoeft niets meer te doen.',
  },
};

const PURPOSE_LABELS: Record<string, Record<Language, string>> = {
  legal_obligations: {
    en: 'Legal obligations',
    fr: 'Obligations légales',
    nl: 'Wettelijke verplichtingen',
  },
  processing_gdpr_request: {
    en: 'Processing a GDPR request',
    fr: 'Traitement d’une demande RGPD',
    nl: 'Behandeling van een AVG-verzoek',
  },
  ensuring_compliance: {
    en: 'Ensuring compliance',
    fr: 'Garantir la conformité',
    nl: 'Naleving waarborgen',
  },
};

/** The request's language when it is one of ours, English otherwise. */
export function pageLanguage(language: string): Language {
  return language === 'fr' || language === 'nl' ? language : 'en';
}

export function personPageText(language: Language): PersonPageText {
  return TEXT[language];
}

/** A readable label for the predefined purposes; custom free text is shown as the caller wrote it. */
export function purposeLabel(purpose: string, language: Language): string {
  return Object.hasOwn(PURPOSE_LABELS, purpose) ? PURPOSE_LABELS[purpose]![language] : purpose;
}
