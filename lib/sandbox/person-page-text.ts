// Wording of the person's verification page in the three languages of the service (seed §8),
// including readable labels for the predefined purposes. Plain data: no server-only imports.
import type { Language } from './create-verification-input';

export type PersonPageText = {
  sandboxBanner: string;
  heading: string;
  requestedBy: string;
  requestedFor: string;
  purpose: string;
  validUntil: string;
  placeholder: string;
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
    placeholder: 'The verification steps will appear here.',
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
    placeholder: 'Les étapes de la vérification apparaîtront ici.',
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
    placeholder: 'De stappen van de verificatie verschijnen hier.',
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
