import {
  AlignmentType,
  BorderStyle,
  Document,
  HeadingLevel,
  ImageRun,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { type RichValue, richToParagraphs } from './rich';

/**
 * One record printed as a kindergarten prints an observation (issue 18): the school and the
 * title, a table of facts (class, date, children, author …), then each section under its
 * label, the photos last. Any family declares its sections; pure: the bytes of the photos
 * arrive with the input (JPEG or PNG, already scaled).
 */
export interface RecordSheetInput {
  school: string;
  title: string;
  /** Label → value rows of the head table. */
  facts: Array<[string, string]>;
  sections: Array<{ label: string; value: RichValue }>;
  photosLabel: string;
  photos: Array<{ data: Buffer; type: 'jpg' | 'png'; width: number; height: number }>;
}

const SIZE = { body: 24, cell: 21, school: 28, title: 36, heading: 26 };
const FONT = { ascii: 'Times New Roman', eastAsia: '宋体', hAnsi: 'Times New Roman' };
const border = { style: BorderStyle.SINGLE, size: 4, color: '000000' };
const borders = { top: border, bottom: border, left: border, right: border };
/** Largest printed photo width (pixels at 96 dpi): the page's text width. */
const MAX_PHOTO_WIDTH = 560;

const cell = (text: string, width: number, bold = false) =>
  new TableCell({
    borders,
    width: { size: width, type: WidthType.PERCENTAGE },
    children: [new Paragraph({ children: [new TextRun({ text, bold, size: SIZE.cell, font: FONT })] })],
  });

export async function renderRecordSheet(input: RecordSheetInput): Promise<Buffer> {
  const facts = new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: input.facts.map(([label, value]) => new TableRow({ children: [cell(label, 22, true), cell(value, 78)] })),
  });
  const children = [
    new Paragraph({
      alignment: AlignmentType.CENTER,
      children: [new TextRun({ text: input.school, size: SIZE.school, font: FONT })],
    }),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      heading: HeadingLevel.TITLE,
      spacing: { after: 240 },
      children: [new TextRun({ text: input.title, bold: true, size: SIZE.title, font: FONT })],
    }),
    facts,
  ];
  for (const s of input.sections) {
    const body = richToParagraphs(s.value, { run: { size: SIZE.body, font: FONT } });
    if (!body.length) continue;
    children.push(
      new Paragraph({
        spacing: { before: 240, after: 120 },
        children: [new TextRun({ text: s.label, bold: true, size: SIZE.heading, font: FONT })],
      }),
      ...body,
    );
  }
  if (input.photos.length) {
    children.push(
      new Paragraph({
        spacing: { before: 240, after: 120 },
        children: [new TextRun({ text: input.photosLabel, bold: true, size: SIZE.heading, font: FONT })],
      }),
    );
    for (const p of input.photos) {
      const scale = Math.min(1, MAX_PHOTO_WIDTH / p.width);
      children.push(
        new Paragraph({
          alignment: AlignmentType.CENTER,
          children: [
            new ImageRun({
              type: p.type,
              data: p.data,
              transformation: { width: Math.round(p.width * scale), height: Math.round(p.height * scale) },
            }),
          ],
        }),
      );
    }
  }
  const doc = new Document({ sections: [{ children }] });
  return Packer.toBuffer(doc);
}
