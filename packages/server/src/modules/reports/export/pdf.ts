import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { checkAborted, DECIMALS, type ExportTable, type ExportValue } from './table.js';

/**
 * The PDF export (pdfkit): the report's title, the fleet, period and generation lines, then a table
 * whose header row repeats on every page, numbers right-aligned and formatted as spec §9 says, page
 * numbers at the foot. Fonts ship as npm packages and are read from disk (nothing is downloaded):
 * DejaVu Sans for Latin (with diacritics), Greek and Cyrillic, Noto Sans Thai for Thai; each text run
 * is set in the font of its script.
 */

const require = createRequire(import.meta.url);
const FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  thai: require.resolve('@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff'),
  thaiBold: require.resolve('@fontsource/noto-sans-thai/files/noto-sans-thai-thai-700-normal.woff'),
};

/** Thai letters, vowels, tone marks and digits (U+0E00–U+0E7F). */
const THAI = /[\u0E00-\u0E7F]/;

/**
 * Splits a text into runs of one script: Thai runs, and runs of everything else. Thai runs are NFKC
 * normalised (sara am U+0E33 → nikhahit + sara aa, the glyphs the font sets it with), so that the
 * PDF's text layer maps every glyph back to its letter.
 */
export function scriptRuns(text: string): { text: string; thai: boolean }[] {
  const runs: { text: string; thai: boolean }[] = [];
  for (const ch of text) {
    const thai = THAI.test(ch);
    const last = runs[runs.length - 1];
    if (last && last.thai === thai) last.text += ch;
    else runs.push({ text: ch, thai });
  }
  for (const run of runs) if (run.thai) run.text = run.text.normalize('NFKC');
  return runs;
}

const SIZE = 8;
/** Noto Sans Thai draws smaller than DejaVu Sans at one size: Thai runs are set this much larger. */
const THAI_SCALE = 1.12;
const TITLE_SIZE = 14;
const PAD = 3;
const LINE = SIZE * 1.35;
const MARGIN = 36;
const FOOT = 24;

type Doc = PDFKit.PDFDocument;

function fontOf(thai: boolean, bold: boolean) {
  if (thai) return bold ? 'thaiBold' : 'thai';
  return bold ? 'bold' : 'regular';
}

function measure(doc: Doc, text: string, size: number, bold = false): number {
  let w = 0;
  for (const run of scriptRuns(text))
    w += doc
      .font(fontOf(run.thai, bold))
      .fontSize(run.thai ? size * THAI_SCALE : size)
      .widthOfString(run.text);
  return w;
}

function draw(doc: Doc, text: string, x: number, y: number, size: number, bold = false) {
  let at = x;
  for (const run of scriptRuns(text)) {
    doc.font(fontOf(run.thai, bold)).fontSize(run.thai ? size * THAI_SCALE : size);
    // A larger Thai run sits on the same baseline as the text around it.
    doc.text(run.text, at, run.thai ? y - size * (THAI_SCALE - 1) * 0.8 : y, { lineBreak: false });
    at += doc.widthOfString(run.text);
  }
}

/** Greedy line breaking at spaces; a word wider than the cell is cut between characters. */
function wrap(doc: Doc, text: string, width: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  const push = (word: string) => {
    const next = line ? `${line} ${word}` : word;
    if (measure(doc, next, SIZE, bold) <= width) {
      line = next;
      return;
    }
    if (line) lines.push(line);
    line = '';
    let piece = '';
    for (const ch of word) {
      if (measure(doc, piece + ch, SIZE, bold) > width && piece) {
        lines.push(piece);
        piece = '';
      }
      piece += ch;
    }
    line = piece;
  };
  for (const word of text.split(/ +/)) push(word);
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

export async function reportPdf(table: ExportTable, signal?: AbortSignal): Promise<Buffer> {
  const f = table.f;
  const landscape = table.columns.length > 6;
  const doc = new PDFDocument({
    size: 'A4',
    layout: landscape ? 'landscape' : 'portrait',
    margins: { top: MARGIN, bottom: MARGIN + FOOT, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: table.title, Creator: 'Fleetkeep' },
  });
  for (const [name, file] of Object.entries(FONTS)) doc.registerFont(name, file);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const text = (kind: string, v: ExportValue): string => {
    if (v === null) return '';
    if (typeof v === 'number') {
      if (kind === 'money') return f.moneyAmount(v);
      return f.number(v, { decimals: DECIMALS[kind as keyof typeof DECIMALS] ?? 3 });
    }
    return kind === 'date' ? f.day(v) : v;
  };
  const cells = table.rows.map((r) => r.map((v, j) => text(table.columns[j]!.kind, v)));
  const totals =
    table.totals?.map((v, j) => (j === 0 ? table.totalLabel : text(table.columns[j]!.kind, v))) ?? null;

  // Column widths: numbers and dates keep their widest content (they never wrap); text columns share
  // what is left in proportion to their widest content (capped), and wrap.
  const pageWidth = doc.page.width - MARGIN * 2;
  const fixed = table.columns.map((c) => c.numeric || c.kind === 'date');
  const natural = table.columns.map((c, j) => {
    let w = fixed[j] ? 0 : Math.min(measure(doc, c.title, SIZE, true), 120);
    for (const row of cells.slice(0, 2000)) w = Math.max(w, Math.min(measure(doc, row[j]!, SIZE), 220));
    if (totals) w = Math.max(w, measure(doc, totals[j]!, SIZE, true));
    // A fixed column's title wraps at its words, not narrower than its longest word.
    if (fixed[j]) for (const word of c.title.split(' ')) w = Math.max(w, measure(doc, word, SIZE, true));
    return w + PAD * 2;
  });
  const fixedWidth = natural.reduce((a, w, j) => a + (fixed[j] ? w : 0), 0);
  const flexWidth = natural.reduce((a, w, j) => a + (fixed[j] ? 0 : w), 0);
  const room = pageWidth - fixedWidth;
  const widths =
    room > flexWidth * 0.3 || flexWidth === 0
      ? natural.map((w, j) => (fixed[j] ? w : flexWidth ? (w * room) / flexWidth : w))
      : natural.map((w) => (w * pageWidth) / (fixedWidth + flexWidth));
  // A text column is never narrower than its title's longest word; the widest text column gives way.
  table.columns.forEach((c, j) => {
    if (fixed[j]) return;
    const least = Math.max(...c.title.split(' ').map((w) => measure(doc, w, SIZE, true))) + PAD * 2;
    const short = least - widths[j]!;
    if (short <= 0) return;
    let widest = -1;
    widths.forEach((w, k) => {
      if (!fixed[k] && k !== j && (widest < 0 || w > widths[widest]!)) widest = k;
    });
    if (widest < 0 || widths[widest]! - short < least) return;
    widths[widest] = widths[widest]! - short;
    widths[j] = least;
  });
  if (flexWidth === 0) {
    // Numbers only: spread them over the page.
    const scale = pageWidth / fixedWidth;
    for (let j = 0; j < widths.length; j++) widths[j] = widths[j]! * scale;
  }
  const xs = widths.map((_, j) => MARGIN + widths.slice(0, j).reduce((a, b) => a + b, 0));
  const bottom = () => doc.page.height - MARGIN - FOOT;

  const drawRow = (values: string[], bold: boolean, fill?: string) => {
    const wrapped = values.map((v, j) => wrap(doc, v, widths[j]! - PAD * 2, bold));
    const height = Math.max(...wrapped.map((l) => l.length)) * LINE + PAD * 2;
    return {
      height,
      paint(at: number) {
        if (fill) doc.rect(MARGIN, at, pageWidth, height).fill(fill).fillColor('black');
        wrapped.forEach((lines, j) => {
          lines.forEach((line, k) => {
            const w = measure(doc, line, SIZE, bold);
            const x = table.columns[j]!.numeric ? xs[j]! + widths[j]! - PAD - w : xs[j]! + PAD;
            draw(doc, line, x, at + PAD + k * LINE, SIZE, bold);
          });
        });
        doc
          .moveTo(MARGIN, at + height)
          .lineTo(MARGIN + pageWidth, at + height)
          .lineWidth(0.3)
          .strokeColor('#999999')
          .stroke();
      },
    };
  };

  // Title block.
  let y = MARGIN;
  draw(doc, table.title, MARGIN, y, TITLE_SIZE, true);
  y += TITLE_SIZE * 1.6;
  for (const [label, value] of table.meta) {
    draw(doc, `${label}: ${value}`, MARGIN, y, SIZE + 1);
    y += (SIZE + 1) * 1.5;
  }
  y += 6;

  const header = table.columns.map((c) => c.title);
  const paintHeader = () => {
    const h = drawRow(header, true, '#e8e8e8');
    h.paint(y);
    y += h.height;
  };
  paintHeader();
  const put = (values: string[], bold: boolean) => {
    const row = drawRow(values, bold);
    if (y + row.height > bottom()) {
      doc.addPage();
      y = MARGIN;
      paintHeader();
    }
    row.paint(y);
    y += row.height;
  };
  for (let i = 0; i < cells.length; i++) {
    if (i % 50 === 0) {
      checkAborted(signal);
      // Let the event loop see a disconnect between slices of a long table.
      if (i > 0) await new Promise((r) => setImmediate(r));
    }
    put(cells[i]!, false);
  }
  if (totals) put(totals, true);
  if (table.note) {
    if (y + LINE * 2 > bottom()) {
      doc.addPage();
      y = MARGIN;
    }
    draw(doc, table.note, MARGIN, y + LINE / 2, SIZE);
  }
  checkAborted(signal);

  // Page numbers, once the page count is known.
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const label = f.t('reports.export.page', { page: i + 1, pages: range.count });
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const w = measure(doc, label, SIZE);
    draw(doc, label, doc.page.width - MARGIN - w, doc.page.height - MARGIN - SIZE, SIZE);
    doc.page.margins.bottom = saved;
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
