// Notifications: the e-mail's wording in each language, its delivery through a real SMTP server
// (smtp-server, started here) after the creation has committed, and the fallback to the outbox
// when the server cannot be reached, without failing the API call.
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST } from '@/app/(sandbox)/v1/verifications/new/route';
import { closeDatabases } from '@/lib/platform/database';
import { parseCreateVerificationInput } from '@/lib/sandbox/api/create-verification-input';
import type { SandboxDb } from '@/lib/sandbox/db';
import { outbox, verifications } from '@/lib/sandbox/schema';
import { captureLogs, stopCapturingLogs } from '@/test/support/logs';
import { createRequest, createTestCompany, type TestCompany, useInMemorySandbox, validBody } from '@/test/support/sandbox';
import { DEFAULT_SMTP_FROM, deliverEmails, verificationEmail, verificationSms } from './notifications';
import { listCompanyOutbox } from './outbox';
import { createVerification, getRequestByToken, type PendingEmail } from './verifications';

let db: SandboxDb;
let company: TestCompany;

type Received = { from: string | undefined; to: string[]; raw: string };
const received: Received[] = [];
let smtp: SMTPServer;
let smtpPort: number;

beforeAll(async () => {
  db = await useInMemorySandbox();
  company = await createTestCompany(db, { name: 'Acme Bank' });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
  await closeDatabases();
});

afterEach(() => {
  delete process.env.SMTP_URL;
  delete process.env.SMTP_FROM;
  received.length = 0;
  vi.restoreAllMocks();
  stopCapturingLogs();
});

const post = (body: Record<string, unknown>) => POST(createRequest(validBody(body), { apiKey: company.apiKey }), undefined);

async function outboxOf(verificationId: string) {
  return db.select().from(outbox).where(eq(outbox.verificationId, verificationId));
}

/** The message's headers unfolded, and its body decoded from quoted-printable (how nodemailer sends long lines). */
function decode(raw: string): { headers: string; body: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest
    .join('\n\n')
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (encoded) => Buffer.from(encoded.replaceAll('=', ''), 'hex').toString('utf8'));
  return { headers: head.replace(/\r?\n[ \t]+/g, ' '), body };
}

const email = (overrides: Partial<PendingEmail> = {}): PendingEmail => ({
  companyId: 'c',
  verificationId: 'v',
  recipient: 'jane@example.com',
  language: 'en',
  link: 'http://localhost/sandbox/verify/TOKEN',
  companyName: 'Acme Bank',
  name: 'Jane Doe',
  purpose: 'legal_obligations',
  accessExpiresAt: new Date('2030-01-08T10:00:00.000Z'),
  ...overrides,
});

describe('the e-mail', () => {
  it.each([
    ['en', 'Verify your identity for Acme Bank', 'Legal obligations', 'Hello Jane Doe,'],
    ['fr', 'Vérifiez votre identité pour Acme Bank', 'Obligations légales', 'Bonjour Jane Doe,'],
    ['nl', 'Bevestig uw identiteit voor Acme Bank', 'Wettelijke verplichtingen', 'Beste Jane Doe,'],
  ] as const)('in %s: subject, company, purpose and link', (language, subject, purpose, greeting) => {
    const content = verificationEmail(email({ language }));
    expect(content.subject).toBe(subject);
    for (const part of [content.text, content.html]) {
      expect(part).toContain('Acme Bank');
      expect(part).toContain(purpose);
      expect(part).toContain('http://localhost/sandbox/verify/TOKEN');
      expect(part).toContain(greeting);
    }
    expect(content.html).toContain(`lang="${language}"`);
    expect(content.html).toContain('<a href="http://localhost/sandbox/verify/TOKEN">');
  });

  it('keeps a custom purpose as typed, and escapes what callers typed in the HTML', () => {
    const content = verificationEmail(email({ name: '<b>Jane</b>', purpose: 'Open "an" account & more', companyName: 'A<B' }));
    expect(content.text).toContain('Open "an" account & more');
    expect(content.html).toContain('Open &quot;an&quot; account &amp; more');
    expect(content.html).toContain('&lt;b&gt;Jane&lt;/b&gt;');
    expect(content.html).not.toContain('<b>Jane');
    expect(content.html).toContain('A&lt;B');
  });

  it('shows markup in a name or purpose as text in the HTML e-mail, never as elements', () => {
    for (const payload of ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>']) {
      const content = verificationEmail(email({ name: payload, purpose: payload }));
      expect(content.text).toContain(payload);
      expect(content.html).not.toContain('<script>alert');
      expect(content.html).not.toContain('<img');
      expect(content.html).toContain(
        payload.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;'),
      );
    }
  });
});

describe('SMTP delivery', () => {
  it('sends the e-mail to a real SMTP server after the commit, in the request’s language, with the link', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    const response = await post({ email: 'jan@example.com', name: 'Jan Jansen', language: 'nl', chosenPurpose: 'ensuring_compliance' });
    expect(response.status).toBe(200);
    const { verificationId } = (await response.json()) as { verificationId: string };

    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message!.to).toEqual(['jan@example.com']);
    expect(message!.from).toBe('no-reply@sandbox.invalid');
    const { headers, body } = decode(message!.raw);
    expect(headers).toContain('Subject: Bevestig uw identiteit voor Acme Bank');
    expect(headers).toContain(`From: ${DEFAULT_SMTP_FROM}`);
    expect(headers).toContain('To: jan@example.com');
    expect(body).toContain('Naleving waarborgen');
    const link = body.match(/http:\/\/localhost\/sandbox\/verify\/([A-Za-z0-9_-]{43})/);
    expect(link).not.toBeNull();
    // The link in the e-mail opens this very request.
    expect((await getRequestByToken(db, link![1]!))?.verificationId).toBe(verificationId);
    // Delivered: nothing waits in the outbox.
    expect(await outboxOf(verificationId)).toEqual([]);
  });

  it('uses SMTP_FROM; the SMS still lands in the outbox; a shareable link sends no e-mail', async () => {
    process.env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    process.env.SMTP_FROM = 'Compliance <compliance@example.org>';
    const response = await post({ email: 'fr@example.com', language: 'fr', phonenumber: '+32470123456', smsNotification: true });
    const { verificationId } = (await response.json()) as { verificationId: string };
    expect(received.map((m) => m.from)).toEqual(['compliance@example.org']);
    expect(decode(received[0]!.raw).headers).toMatch(/Subject: =\?UTF-8\?[QB]\?/i);
    expect((await outboxOf(verificationId)).map((row) => row.channel)).toEqual(['sms']);

    received.length = 0;
    const shared = await post({ shareableLink: true, email: 'nobody@example.com' });
    expect(shared.status).toBe(200);
    expect(received).toEqual([]);
  });

  it('a mail server that cannot be reached: the call still succeeds and the e-mail waits in the outbox', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    const logs = captureLogs();

    const response = await post({ email: 'unlucky@example.com', language: 'fr' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { message: string; verificationId: string };
    expect(body.message).toBe('Verification request created successfully.');

    const [row] = await db.select().from(verifications).where(eq(verifications.id, body.verificationId));
    expect(row?.status).toBe('pending');
    expect(
      (await outboxOf(body.verificationId)).map(({ channel, recipient, language, link }) => ({ channel, recipient, language, link })),
    ).toEqual([
      {
        channel: 'email',
        recipient: 'unlucky@example.com',
        language: 'fr',
        link: expect.stringMatching(/\/sandbox\/verify\/[A-Za-z0-9_-]{43}$/),
      },
    ]);
    // Logged with the id and the error code, never the address.
    const logged = logs.text();
    expect(logged).toContain(body.verificationId);
    expect(logged).toContain('ECONNREFUSED');
    expect(logged).not.toContain('unlucky@example.com');
  });

  it('a mail server that hangs does not hold the answer; the e-mail falls back to the outbox when it gives up', async () => {
    // Accepts connections and says nothing, until the test hangs up.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    process.env.SMTP_URL = `smtp://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    captureLogs();
    try {
      const parsed = parseCreateVerificationInput(validBody({ email: 'slow@example.com' }));
      if (!parsed.ok) throw new Error(parsed.error);
      const created = await createVerification(db, {
        companyId: company.companyId,
        input: parsed.value,
        baseUrl: 'http://localhost',
        emailBySmtp: true,
      });
      expect(created.outboxRows).toBe(0);
      const started = Date.now();
      expect(await deliverEmails(db, created.emails, { waitMs: 100 })).toEqual({ sent: 0, keptInOutbox: 0, stillSending: 1 });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await outboxOf(created.verificationId)).toEqual([]);

      await until(() => sockets.length > 0);
      for (const socket of sockets) socket.destroy();
      await until(async () => (await outboxOf(created.verificationId)).length === 1);
    } finally {
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the outbox keeps what the message says', () => {
  it('in French: the e-mail’s subject and text, and the SMS, as the person would have read them', async () => {
    const response = await post({
      email: 'claire@example.com',
      name: 'Claire Dubois',
      language: 'fr',
      chosenPurpose: 'legal_obligations',
      phonenumber: '+32470123456',
      smsNotification: true,
    });
    const { verificationId } = (await response.json()) as { verificationId: string };
    const rows = await outboxOf(verificationId);
    const mail = rows.find((row) => row.channel === 'email');
    const sms = rows.find((row) => row.channel === 'sms');
    expect(mail?.subject).toBe('Vérifiez votre identité pour Acme Bank');
    expect(mail?.body).toContain('Bonjour Claire Dubois,');
    expect(mail?.body).toContain(mail!.link);
    expect(sms?.subject).toBeNull();
    expect(sms?.body).toMatch(/^Acme Bank vous demande de vérifier votre identité \(.+\)\. Lien valable jusqu’au .+ UTC\u00a0: /);
    expect(sms?.body).toContain(sms!.link);
  });

  it('in Dutch, and the outbox API hands the text to the dashboard with its language', async () => {
    const response = await post({ email: 'jan@example.com', name: 'Jan Jansen', language: 'nl', chosenPurpose: 'ensuring_compliance' });
    const { verificationId } = (await response.json()) as { verificationId: string };
    const listed = (await listCompanyOutbox(db, company.companyId)).find((message) => message.verificationId === verificationId);
    expect(listed).toMatchObject({ channel: 'email', language: 'nl', subject: 'Bevestig uw identiteit voor Acme Bank' });
    expect(listed?.body).toContain('Beste Jan Jansen,');
    expect(listed?.body).toContain('Acme Bank vraagt u om uw identiteit te bevestigen.');
    expect(verificationSms({ ...email({ language: 'nl', companyName: 'Acme Bank' }) })).toMatch(
      /^Acme Bank vraagt u om uw identiteit te bevestigen \(/,
    );
  });
});
