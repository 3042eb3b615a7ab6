// The evidence pack as a PDF for a reader: the same facts as the signed JSON, laid out on A4 in
// the staff member's language and time zone. Tagged (a structure tree of headings, paragraphs,
// tables and a list, with the language and a title shown as such) so that a screen reader reads
// it as a document; page headers and numbers are artifacts, outside that tree. The fonts are
// DejaVu Sans, embedded: they cover every accented Latin name (é, ë, ø, ß, ř...).
import 'server-only';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getTranslations } from 'next-intl/server';
import PDFDocument from 'pdfkit';
import { auditActionLabel } from '@/lib/audit/audit-labels';
import { isLanguage, type Language } from '@/lib/i18n/languages';
import { formatDateTime } from '@/lib/time/display-time';
import { verificationStatuses } from '@/lib/verification-service/contract/verification-status';
import { isPredefinedPurpose } from '@/lib/verifications/labels';
import { serviceNoticeOf } from '@/lib/verifications/timeline/service-notices';
import type { EvidencePack, PackHistoryItem, PackStaff } from './pack-format';

type Doc = PDFKit.PDFDocument;
type Struct = PDFKit.PDFStructureElement;
// pdfkit's types lack a table cell's scope, which it writes (TH headers of a row or a column).
type StructOptions = Parameters<Doc['struct']>[1];

// A4 in points; the margins leave room for the running header and the page numbers.
const A4: [number, number] = [595.28, 841.89];
const MARGIN = { top: 64, bottom: 64, left: 56, right: 56 };
const WIDTH = A4[0] - MARGIN.left - MARGIN.right;
const LABEL_WIDTH = 150;
const GAP = 10;

const FONT_DIR = path.join(process.cwd(), 'node_modules', 'dejavu-fonts-ttf', 'ttf');
const FONTS = { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf', mono: 'DejaVuSansMono.ttf' } as const;
type FontName = keyof typeof FONTS;

// Read once per process: the files do not change while it runs.
let fontData: Record<FontName, Buffer> | undefined;
function fonts(): Record<FontName, Buffer> {
  fontData ??= {
    regular: readFileSync(path.join(FONT_DIR, FONTS.regular)),
    bold: readFileSync(path.join(FONT_DIR, FONTS.bold)),
    mono: readFileSync(path.join(FONT_DIR, FONTS.mono)),
  };
  return fontData;
}

/** The offline check, as typed (docs/evidence-pack.md): a command, not words to translate. */
const VERIFY_COMMAND = 'npm run audit -- verify-pack <pack.json> --public-key <public-key.pem>';

const INK = '#0f172a';
const MUTED = '#475569';
const RULE = '#cbd5e1';

/** The pack as PDF bytes, in the language and zone the pack was made for. */
export async function renderEvidencePdf(pack: EvidencePack): Promise<Buffer> {
  const language: Language = isLanguage(pack.language) ? pack.language : 'en';
  const [t, tCommon, tAudit, tTimeline] = await Promise.all([
    getTranslations({ locale: language, namespace: 'evidence.pdf' }),
    getTranslations({ locale: language, namespace: 'common' }),
    getTranslations({ locale: language, namespace: 'audit' }),
    getTranslations({ locale: language, namespace: 'detail.timeline' }),
  ]);
  const v = pack.verification;
  const zone = pack.timeZone;
  const when = (iso: string | null) => (iso ? formatDateTime(iso, zone, language) : t('values.none'));
  const person = (staff: PackStaff | null) => (staff ? (staff.name ?? t('values.formerColleague')) : t('values.none'));
  const status = (code: string | null) =>
    code && (verificationStatuses as readonly string[]).includes(code) ? tCommon(`status.${code}`) : (code ?? t('values.none'));
  const decision = (code: string | null) =>
    code === 'same_person' || code === 'different_person' ? tCommon(`nameReviewDecision.${code}`) : (code ?? t('values.none'));
  const method = (code: string | null) =>
    code === 'passport' || code === 'id_card' || code === 'drivers_license' ? tCommon(`method.${code}`) : (code ?? t('values.none'));
  // The service's event types in words, as the detail page's history says them; another type as it came.
  const noticeWords = (eventType: string) => {
    const notice = serviceNoticeOf(eventType);
    return notice ? tTimeline(`notices.${notice}`) : eventType;
  };
  const purpose = (code: string) => (isPredefinedPurpose(code) ? tCommon(`purpose.${code}`) : code);
  const personLanguage = (code: string | null) =>
    code === 'en' || code === 'fr' || code === 'nl' ? t(`languages.${code}`) : (code ?? t('values.none'));
  const channels = (link: boolean | null, email: boolean | null, sms: boolean | null) => {
    const names = [link && t('channels.link'), email && t('channels.email'), sms && t('channels.sms')].filter(
      (name): name is string => typeof name === 'string',
    );
    return names.length > 0 ? names.join(', ') : t('channels.none');
  };

  const doc = new PDFDocument({
    size: A4,
    margins: MARGIN,
    pdfVersion: '1.7',
    tagged: true,
    lang: language,
    displayTitle: true,
    bufferPages: true,
    autoFirstPage: false,
    info: {
      Title: t('documentTitle', { id: v.id }),
      Subject: t('subject'),
      Author: 'Verification Desk',
      Creator: 'Verification Desk',
      CreationDate: new Date(pack.generatedAt),
    },
  });
  const { regular, bold, mono } = fonts();
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  doc.registerFont('mono', mono);
  const bytes = collect(doc);
  doc.addPage();

  const root = doc.struct('Document');
  doc.addStructure(root);
  const writer = new Writer(doc, root);

  writer.heading('H1', t('title'));
  writer.paragraph(t('verification', { id: v.id }), { font: 'mono', size: 10 });
  writer.paragraph(
    `${t('madeBy', { date: when(pack.generatedAt), name: pack.generatedBy.name ?? t('values.formerColleague') })} ${t('zone', { zone })}`,
  );
  writer.paragraph(t('sameAsJson'), { color: MUTED, size: 9 });

  writer.section(t('request.heading'), [
    [t('request.id'), v.id, 'mono'],
    [t('request.requestedName'), v.requestedName],
    [t('request.purpose'), purpose(v.purpose)],
    [t('request.personLanguage'), personLanguage(v.personLanguage)],
    [t('request.channels'), channels(v.channels.shareableLink, v.channels.email, v.channels.sms)],
    [t('request.createdBy'), person(v.createdBy)],
    [t('request.createdAt'), when(v.createdAt)],
  ]);

  writer.section(t('outcome.heading'), [
    [t('outcome.status'), status(v.status)],
    [t('outcome.identifiedName'), v.identifiedName ?? t('values.none')],
    [t('outcome.identifiedAt'), when(v.identifiedAt)],
    [t('outcome.method'), method(v.method)],
    [t('outcome.failureReason'), v.failureReason ?? t('values.none')],
    [t('outcome.keptUntil'), when(v.keptUntil)],
    [t('outcome.serviceRecord'), t(`serviceRecord.${v.serviceRecord}`)],
  ]);

  if (v.nameReview) {
    writer.section(t('review.heading'), [
      [t('review.decision'), decision(v.nameReview.decision)],
      [t('review.decidedBy'), person(v.nameReview.decidedBy)],
      [t('review.decidedAt'), when(v.nameReview.decidedAt)],
    ]);
  } else {
    writer.heading('H2', t('review.heading'));
    writer.paragraph(t('review.none'));
  }

  writer.heading('H2', t('history.heading'));
  if (pack.history.length === 0) writer.paragraph(t('history.empty'));
  else {
    writer.paragraph(t('history.intro'), { color: MUTED, size: 9 });
    const event = (item: PackHistoryItem): string => {
      const facts = item.facts;
      const text = (key: string) => (typeof facts[key] === 'string' ? (facts[key] as string) : null);
      switch (item.event) {
        case 'created':
          return t('history.created', {
            channels: channels(facts.shareableLink as boolean | null, facts.email as boolean | null, facts.sms as boolean | null),
          });
        case 'status_changed': {
          const parts = [t('history.statusChanged', { status: status(text('status')) })];
          if (text('previous')) parts.push(t('history.previous', { status: status(text('previous')) }));
          if (facts.viaWebhook === true) parts.push(t('history.viaWebhook'));
          if (text('failureReason')) parts.push(t('history.failureReason', { reason: text('failureReason') ?? '' }));
          return parts.join(', ');
        }
        case 'service_notice':
          return t('history.notice', { count: Number(facts.count ?? 1), event: noticeWords(text('eventType') ?? '') });
        case 'viewed':
          return t('history.viewed', { count: Number(facts.count ?? 1), last: when(item.until) });
        case 'link_copied':
          return t('history.linkCopied');
        case 'reviewed':
          return t('history.reviewed', { decision: decision(text('decision')) });
        case 'note_added':
          return facts.correction === true ? t('history.correctionAdded') : t('history.noteAdded');
        case 'assigned':
          return t('history.assigned', { assignee: person(facts.assignee as PackStaff | null) });
        case 'unassigned': {
          const reason = text('reason');
          return reason === 'staff_disabled' || reason === 'staff_role_changed' ? t(`history.released.${reason}`) : t('history.unassigned');
        }
        default:
          return auditActionLabel(text('action') ?? item.event, tAudit);
      }
    };
    const by = (item: PackHistoryItem) =>
      item.by
        ? person(item.by)
        : item.event === 'status_changed' || item.event === 'service_notice'
          ? t('history.service')
          : t('history.notRecorded');
    const entry = (item: PackHistoryItem) => {
      const [first, ...more] = item.audit;
      if (!first) return '';
      const short = `#${first.seq} ${first.hash.slice(0, 12)}`;
      return more.length > 0 ? `${short} ${t('history.moreEntries', { count: more.length })}` : short;
    };
    writer.table(
      [t('history.time'), t('history.event'), t('history.by'), t('history.entry')],
      [118, WIDTH - 118 - 88 - 100, 88, 100],
      pack.history.map((item) => [when(item.at), event(item), by(item), entry(item)]),
      [undefined, undefined, undefined, 'mono'],
    );
    if (pack.historyTruncated) writer.paragraph(t('history.truncated'), { color: MUTED, size: 9 });
  }

  writer.section(t('integrity.heading'), [
    [t('integrity.entries'), t('integrity.entryCount', { count: pack.auditEntries.length })],
    [t('integrity.checkpoint'), t('integrity.checkpointValue', { seq: pack.checkpoint.seq, date: when(pack.checkpoint.at) })],
    [t('integrity.checkpointKey'), pack.checkpoint.keyFingerprint, 'mono'],
    [t('integrity.packKey'), pack.signature.keyFingerprint, 'mono'],
  ]);
  writer.paragraph(t('integrity.howToCheck'), { color: MUTED, size: 9 });
  writer.paragraph(VERIFY_COMMAND, { font: 'mono', size: 8 });

  writer.heading('H2', t('notKept.heading'));
  writer.list(pack.doesNotKeep.map((code) => t(`notKept.${code}`)));

  root.end();
  writer.pageFurniture(t('footer', { id: v.id }), (page, pages) => t('pageOf', { page, pages }));
  doc.end();
  return bytes;
}

function collect(doc: Doc): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

type TextStyle = { font?: FontName; size?: number; color?: string };
type Pair = [label: string, value: string, font?: FontName];

/**
 * Lays out the document top to bottom, each piece both drawn and placed in the structure tree.
 * A piece that would not fit on what is left of the page starts a new one (a row of a table is
 * never cut in two), so no struct's drawing spans a page break it did not plan.
 */
class Writer {
  constructor(
    private readonly doc: Doc,
    private readonly root: Struct,
  ) {}

  private get bottom(): number {
    return this.doc.page.height - MARGIN.bottom;
  }

  private ensureRoom(height: number): void {
    if (this.doc.y + height > this.bottom) this.doc.addPage();
  }

  private style({ font = 'regular', size = 10, color = INK }: TextStyle): void {
    this.doc.font(font).fontSize(size).fillColor(color);
  }

  /** A heading, kept on one page with `keepWith` points of what follows it (at least a line). */
  heading(level: 'H1' | 'H2', text: string, keepWith = 40): void {
    const size = level === 'H1' ? 20 : 13;
    this.style({ font: 'bold', size });
    const pageRoom = this.bottom - MARGIN.top;
    this.ensureRoom(Math.min(this.doc.heightOfString(text, { width: WIDTH }) + 20 + keepWith, pageRoom));
    if (level === 'H2') this.doc.moveDown(0.8);
    const y = this.doc.y;
    this.root.add(
      this.doc.struct(level, {}, () => {
        this.style({ font: 'bold', size });
        this.doc.text(text, MARGIN.left, y, { width: WIDTH });
      }),
    );
    this.doc.moveDown(0.3);
  }

  paragraph(text: string, style: TextStyle = {}): void {
    this.style(style);
    this.ensureRoom(this.doc.heightOfString(text, { width: WIDTH }));
    const y = this.doc.y;
    this.root.add(
      this.doc.struct('P', {}, () => {
        this.style(style);
        this.doc.text(text, MARGIN.left, y, { width: WIDTH });
      }),
    );
    this.doc.moveDown(0.4);
  }

  /** A heading and its label and value pairs, kept on one page when they fit on one. */
  section(heading: string, rows: Pair[]): void {
    this.heading('H2', heading, this.pairsHeight(rows));
    this.pairs(rows);
  }

  private pairsHeight(rows: Pair[]): number {
    return rows.reduce((sum, row) => sum + this.pairHeight(row) + 5, 0);
  }

  private pairHeight([label, value, font]: Pair): number {
    this.style({ font: 'bold', size: 9.5 });
    const labelHeight = this.doc.heightOfString(label, { width: LABEL_WIDTH });
    this.style({ font: font ?? 'regular', size: font === 'mono' ? 8 : 10 });
    return Math.max(labelHeight, this.doc.heightOfString(value, { width: WIDTH - LABEL_WIDTH - GAP }));
  }

  /** Label and value pairs: a two-column table whose first cell heads its row. */
  pairs(rows: Pair[]): void {
    const table = this.doc.struct('Table');
    this.root.add(table);
    const valueWidth = WIDTH - LABEL_WIDTH - GAP;
    for (const [label, value, font] of rows) {
      const valueStyle: TextStyle = { font: font ?? 'regular', size: font === 'mono' ? 8 : 10 };
      this.style({ font: 'bold', size: 9.5 });
      const labelHeight = this.doc.heightOfString(label, { width: LABEL_WIDTH });
      this.style(valueStyle);
      const valueHeight = this.doc.heightOfString(value, { width: valueWidth });
      this.ensureRoom(Math.max(labelHeight, valueHeight));
      const y = this.doc.y;
      const row = this.doc.struct('TR');
      table.add(row);
      row.add(
        this.doc.struct('TH', { scope: 'Row' } as StructOptions, () => {
          this.style({ font: 'bold', size: 9.5, color: MUTED });
          this.doc.text(label, MARGIN.left, y, { width: LABEL_WIDTH });
        }),
      );
      row.add(
        this.doc.struct('TD', {}, () => {
          this.style(valueStyle);
          this.doc.text(value, MARGIN.left + LABEL_WIDTH + GAP, y, { width: valueWidth });
        }),
      );
      row.end();
      this.doc.y = y + Math.max(labelHeight, valueHeight) + 5;
    }
    table.end();
    this.doc.x = MARGIN.left;
  }

  /** A table with a header row; each row stays on one page. */
  table(headers: string[], widths: number[], rows: string[][], fonts: (FontName | undefined)[]): void {
    const size = 8.5;
    const table = this.doc.struct('Table');
    this.root.add(table);
    const xs = widths.map((_, i) => MARGIN.left + widths.slice(0, i).reduce((sum, width) => sum + width, 0));
    const cellHeights = (cells: string[], font: (i: number) => FontName) =>
      cells.map((cell, i) => {
        this.style({ font: font(i), size });
        return this.doc.heightOfString(cell || ' ', { width: (widths[i] ?? 0) - 6 });
      });

    const headerHeight = Math.max(...cellHeights(headers, () => 'bold'));
    this.ensureRoom(headerHeight + 30);
    const headerY = this.doc.y;
    const headerRow = this.doc.struct('TR');
    table.add(headerRow);
    headers.forEach((header, i) => {
      headerRow.add(
        this.doc.struct('TH', { scope: 'Column' } as StructOptions, () => {
          this.style({ font: 'bold', size, color: MUTED });
          this.doc.text(header, xs[i] ?? MARGIN.left, headerY, { width: (widths[i] ?? 0) - 6 });
        }),
      );
    });
    headerRow.end();
    this.doc.y = headerY + headerHeight + 3;
    this.rule();

    for (const cells of rows) {
      const height = Math.max(...cellHeights(cells, (i) => fonts[i] ?? 'regular'));
      this.ensureRoom(height + 4);
      const y = this.doc.y + 3;
      const row = this.doc.struct('TR');
      table.add(row);
      cells.forEach((cell, i) => {
        row.add(
          this.doc.struct('TD', {}, () => {
            this.style({ font: fonts[i] ?? 'regular', size });
            this.doc.text(cell, xs[i] ?? MARGIN.left, y, { width: (widths[i] ?? 0) - 6 });
          }),
        );
      });
      row.end();
      this.doc.y = y + height + 3;
      this.rule();
    }
    table.end();
    this.doc.x = MARGIN.left;
    this.doc.moveDown(0.4);
  }

  /** A bulleted list: L, LI, Lbl and LBody, as a screen reader expects one. */
  list(items: string[]): void {
    const list = this.doc.struct('L');
    this.root.add(list);
    for (const item of items) {
      this.style({});
      this.ensureRoom(this.doc.heightOfString(item, { width: WIDTH - 14 }));
      const y = this.doc.y;
      const li = this.doc.struct('LI');
      list.add(li);
      li.add(
        this.doc.struct('Lbl', {}, () => {
          this.style({});
          this.doc.text('•', MARGIN.left, y, { width: 12 });
        }),
      );
      li.add(
        this.doc.struct('LBody', {}, () => {
          this.style({});
          this.doc.text(item, MARGIN.left + 14, y, { width: WIDTH - 14 });
        }),
      );
      li.end();
      this.doc.moveDown(0.3);
    }
    list.end();
    this.doc.x = MARGIN.left;
  }

  /** A thin line under a table row: decoration, so an artifact. */
  private rule(): void {
    const y = this.doc.y;
    this.doc.markContent('Artifact', { type: 'Layout' });
    this.doc
      .moveTo(MARGIN.left, y)
      .lineTo(MARGIN.left + WIDTH, y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    this.doc.endMarkedContent();
  }

  /** The running header and "page x of y" on every page, once the count is known: artifacts. */
  pageFurniture(header: string, pageOf: (page: number, pages: number) => string): void {
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      this.doc.switchToPage(i);
      // Writing in the bottom margin must not start a page of its own.
      const bottomMargin = this.doc.page.margins.bottom;
      this.doc.page.margins.bottom = 0;
      this.doc.markContent('Artifact', { type: 'Pagination' });
      this.style({ size: 8, color: MUTED });
      this.doc.text(header, MARGIN.left, 32, { width: WIDTH, lineBreak: false });
      this.doc.text(pageOf(i - start + 1, count), MARGIN.left, A4[1] - 40, { width: WIDTH, align: 'right', lineBreak: false });
      this.doc.endMarkedContent();
      this.doc.page.margins.bottom = bottomMargin;
    }
  }
}
