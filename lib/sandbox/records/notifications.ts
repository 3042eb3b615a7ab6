// How the sandbox tells the person about a new request: the e-mail (subject, text and HTML in
// the request's language) and its delivery through SMTP when SMTP_URL is set, and the SMS. What
// an outbox message says (the e-mail's subject and text, or the SMS) is kept with it, for the
// dashboard's outbox page (outboxText).
//
// Delivery rule (the outbox holds exactly what the sandbox did not deliver itself):
// - no SMTP_URL: the e-mail is written to the outbox in the creation's transaction;
// - SMS: always the outbox (the sandbox has no SMS gateway);
// - SMTP_URL set: the e-mail is sent after the creation has committed, never inside its
//   transaction; if sending fails, the API call still succeeds, the failure is logged (without
//   the address), and the message is written to the outbox as the fallback, so staff can still
//   see it and hand the link over.
import 'server-only';
import { createTransport } from 'nodemailer';
import { logger } from '@/lib/platform/log';
import type { Language } from '@/lib/sandbox/api/create-verification-input';
import { getSandboxConfig } from '@/lib/sandbox/config';
import type { SandboxDb } from '@/lib/sandbox/db';
import { purposeLabel } from '@/lib/sandbox/person-page/person-page-text';
import { addToOutbox } from './outbox';
import type { PendingEmail } from './verifications';

const log = logger.child({ area: 'sandbox' });

/** What a message is composed from: the request's facts, without the address it goes to. */
export type NotificationFacts = Pick<PendingEmail, 'language' | 'link' | 'companyName' | 'name' | 'purpose' | 'accessExpiresAt'>;

export const DEFAULT_SMTP_FROM = 'Verification Desk Sandbox <no-reply@sandbox.invalid>';

/** How long one SMTP step may take: bounded, because the API call waits for the send. */
const SMTP_TIMEOUT_MS = 10_000;

/** SMTP_URL, e.g. `smtp://user:pass@mail.example.com:587`; unset (or empty) means "use the outbox". */
export function getSmtpUrl(): string | undefined {
  return getSandboxConfig().smtpUrl;
}

export function isSmtpConfigured(): boolean {
  return getSmtpUrl() !== undefined;
}

export function getSmtpFrom(): string {
  return getSandboxConfig().smtpFrom ?? DEFAULT_SMTP_FROM;
}

type EmailText = {
  subject: (company: string) => string;
  greeting: (name: string) => string;
  intro: (company: string) => string;
  purpose: string;
  action: string;
  button: string;
  validUntil: (date: string) => string;
  sandbox: string;
};

const EMAIL_TEXT: Record<Language, EmailText> = {
  en: {
    subject: (company) => `Verify your identity for ${company}`,
    greeting: (name) => `Hello ${name},`,
    intro: (company) => `${company} asks you to verify your identity.`,
    purpose: 'Purpose',
    action: 'Open this link to continue:',
    button: 'Verify my identity',
    validUntil: (date) => `The link can be used until ${date} UTC.`,
    sandbox: 'This message comes from a sandbox (a test environment): nothing in it is real.',
  },
  fr: {
    subject: (company) => `Vérifiez votre identité pour ${company}`,
    greeting: (name) => `Bonjour ${name},`,
    intro: (company) => `${company} vous demande de vérifier votre identité.`,
    purpose: 'Finalité',
    action: 'Ouvrez ce lien pour continuer :',
    button: 'Vérifier mon identité',
    validUntil: (date) => `Le lien peut être utilisé jusqu'au ${date} UTC.`,
    sandbox: "Ce message provient d'un bac à sable (un environnement de test) : rien n'y est réel.",
  },
  nl: {
    subject: (company) => `Bevestig uw identiteit voor ${company}`,
    greeting: (name) => `Beste ${name},`,
    intro: (company) => `${company} vraagt u om uw identiteit te bevestigen.`,
    purpose: 'Doel',
    action: 'Open deze link om verder te gaan:',
    button: 'Mijn identiteit bevestigen',
    validUntil: (date) => `De link kan gebruikt worden tot ${date} UTC.`,
    sandbox: 'Dit bericht komt uit een sandbox (een testomgeving): niets erin is echt.',
  },
};

type SmsText = (company: string, purpose: string, date: string, link: string) => string;

/** The SMS: one message, so the essentials only, in the request's language. */
const SMS_TEXT: Record<Language, SmsText> = {
  en: (company, purpose, date, link) =>
    `${company} asks you to verify your identity (${purpose}). Link valid until ${date} UTC: ${link} (Sandbox test message: nothing in it is real.)`,
  fr: (company, purpose, date, link) =>
    `${company} vous demande de vérifier votre identité (${purpose}). Lien valable jusqu’au ${date} UTC\u00a0: ${link} (Message de test d’un bac à sable\u00a0: rien n’y est réel.)`,
  nl: (company, purpose, date, link) =>
    `${company} vraagt u om uw identiteit te bevestigen (${purpose}). Link geldig tot ${date} UTC: ${link} (Testbericht uit een sandbox: niets erin is echt.)`,
};

export type EmailContent = { subject: string; text: string; html: string };

/** The link's deadline as the messages write it: in the request's language, in UTC. */
function validUntilText(message: Pick<PendingEmail, 'language' | 'accessExpiresAt'>): string {
  return new Intl.DateTimeFormat(message.language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(message.accessExpiresAt);
}

function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

/** The e-mail for a new request, in its language. Names and purposes are escaped in the HTML. */
export function verificationEmail(message: NotificationFacts): EmailContent {
  const text = EMAIL_TEXT[message.language];
  const purpose = purposeLabel(message.purpose, message.language);
  const validUntil = validUntilText(message);
  const h = escapeHtml;
  return {
    subject: text.subject(message.companyName),
    text: [
      text.greeting(message.name),
      '',
      text.intro(message.companyName),
      `${text.purpose}: ${purpose}`,
      '',
      text.action,
      message.link,
      '',
      text.validUntil(validUntil),
      '',
      text.sandbox,
    ].join('\n'),
    html: [
      `<!doctype html><html lang="${message.language}"><body>`,
      `<p>${h(text.greeting(message.name))}</p>`,
      `<p>${h(text.intro(message.companyName))}</p>`,
      `<p><strong>${h(text.purpose)}:</strong> ${h(purpose)}</p>`,
      `<p><a href="${h(message.link)}">${h(text.button)}</a></p>`,
      `<p>${h(text.action)}<br>${h(message.link)}</p>`,
      `<p>${h(text.validUntil(validUntil))}</p>`,
      `<p><small>${h(text.sandbox)}</small></p>`,
      '</body></html>',
    ].join('\n'),
  };
}

/** The SMS for a new request, in its language: what the sandbox would have texted the person. */
export function verificationSms(message: NotificationFacts): string {
  return SMS_TEXT[message.language](
    message.companyName,
    purposeLabel(message.purpose, message.language),
    validUntilText(message),
    message.link,
  );
}

/** What a request's message says, the outbox's `subject` and `body`: an e-mail's subject and plain text, or the SMS. */
export function outboxText(channel: 'email' | 'sms', message: NotificationFacts): { subject: string | null; body: string } {
  if (channel === 'sms') return { subject: null, body: verificationSms(message) };
  const email = verificationEmail(message);
  return { subject: email.subject, body: email.text };
}

/** Sends one e-mail through SMTP_URL; throws when the server cannot be reached or refuses it. */
export async function sendVerificationEmail(message: PendingEmail): Promise<void> {
  const url = getSmtpUrl();
  if (!url) throw new Error('SMTP_URL is not set');
  const transport = createTransport({
    url,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: getSmtpFrom(), to: message.recipient, ...verificationEmail(message) });
  } finally {
    transport.close();
  }
}

export type EmailDelivery = { sent: number; keptInOutbox: number; stillSending: number };

/**
 * How long the API call waits for its e-mail. The dashboard gives up on a POST after 10 s by
 * default and must then assume nothing; a slow mail server must not turn a created request into
 * an apparent timeout. Past this, the send goes on in the background with the same fallback.
 */
export const EMAIL_WAIT_MS = 4_000;

/**
 * Sends the e-mails of a request that has just been committed. Never throws: the request
 * exists and the caller must get its answer, whatever the mail server does. An e-mail that
 * could not be sent goes to the outbox instead. Waits at most `waitMs`.
 */
export async function deliverEmails(
  db: SandboxDb,
  emails: PendingEmail[],
  { now = new Date(), waitMs = EMAIL_WAIT_MS }: { now?: Date; waitMs?: number } = {},
): Promise<EmailDelivery> {
  const result: EmailDelivery = { sent: 0, keptInOutbox: 0, stillSending: emails.length };
  const attempts = emails.map(async (email) => {
    const outcome = await sendOrKeep(db, email, now);
    result.stillSending -= 1;
    if (outcome === 'sent') result.sent += 1;
    if (outcome === 'outbox') result.keptInOutbox += 1;
  });
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
    timer.unref();
  });
  await Promise.race([Promise.all(attempts), budget]);
  clearTimeout(timer);
  if (result.stillSending > 0) {
    log.warn({ stillSending: result.stillSending, waitMs }, 'e-mails still being sent; answering without waiting');
  }
  return { ...result };
}

/** One e-mail through SMTP, or into the outbox when that fails. Never rejects. */
async function sendOrKeep(db: SandboxDb, email: PendingEmail, now: Date): Promise<'sent' | 'outbox' | 'lost'> {
  try {
    await sendVerificationEmail(email);
    return 'sent';
  } catch (error) {
    // The codes only: SMTP replies often quote the recipient's address.
    log.warn({ verificationId: email.verificationId, smtp: smtpErrorSummary(error) }, 'e-mail not sent by SMTP; kept in the outbox');
  }
  try {
    await addToOutbox(db, [
      {
        companyId: email.companyId,
        verificationId: email.verificationId,
        channel: 'email',
        recipient: email.recipient,
        language: email.language,
        link: email.link,
        ...outboxText('email', email),
        createdAt: now,
      },
    ]);
    return 'outbox';
  } catch (error) {
    log.error({ verificationId: email.verificationId, smtp: smtpErrorSummary(error) }, 'e-mail could not be kept in the outbox either');
    return 'lost';
  }
}

/** An error's codes and SMTP reply code, never its message (which may contain an address). */
function smtpErrorSummary(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const { code, originalCode, command, responseCode } = error as Error & Record<string, unknown>;
  return [
    error.name,
    typeof code === 'string' ? code : undefined,
    typeof originalCode === 'string' ? originalCode : undefined,
    // Nodemailer's command labels (CONN, MAIL FROM, RCPT TO…); anything longer is not logged.
    typeof command === 'string' && /^[A-Z ]{1,16}$/.test(command) ? `at ${command}` : undefined,
    typeof responseCode === 'number' ? `SMTP ${responseCode}` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
}
