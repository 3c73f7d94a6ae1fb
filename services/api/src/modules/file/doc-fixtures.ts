import { Document, Packer, Paragraph, TextRun } from 'docx';
import ExcelJS from 'exceljs';

/** Documents the file tests make (never committed as binaries): a .docx, an .xlsx, a PDF with a text layer. */

/** A minimal PDF, written out by hand: one page per entry, each showing its lines in Helvetica (none: a page with no text layer, as a scan has). */
export function minimalPdf(pages: string[][], padding = 0): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const ops = lines
      .map((l, i) => `BT /F1 14 Tf 72 ${720 - i * 20} Td (${l.replace(/[()\\]/g, '\\$&')}) Tj ET`)
      .join('\n');
    const content = add(`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  // A comment line of `padding` bytes makes the file as big as a test needs.
  let out = `%PDF-1.4\n${padding ? `%${'x'.repeat(padding)}\n` : ''}`;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

export async function docxOf(paragraphs: string[]): Promise<Uint8Array> {
  const doc = new Document({
    sections: [{ children: paragraphs.map((p) => new Paragraph({ children: [new TextRun(p)] })) }],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
}

export async function xlsxOf(sheets: Record<string, (string | number)[][]>): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) book.addWorksheet(name).addRows(rows);
  return new Uint8Array(await book.xlsx.writeBuffer());
}
