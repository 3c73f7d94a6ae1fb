import { describe, expect, it } from 'vitest';
import { docxOf, minimalPdf, xlsxOf } from './doc-fixtures';
import { docKindOf, EXTRACT_MAX_BYTES, extractDocument } from './extract';

describe('extractDocument: the text of an uploaded document', () => {
  it('reads a .docx’s paragraphs (mammoth raw text)', async () => {
    const bytes = await docxOf(['春季绘本阅读计划', 'Second paragraph']);
    const r = await extractDocument(bytes, '计划.docx');
    expect(r).toMatchObject({ ok: true, kind: 'docx', pages: 1 });
    expect(r.ok && r.text).toBe('春季绘本阅读计划\n\nSecond paragraph');
  });

  it('reads every sheet of an .xlsx, cells by tabs and rows by newlines', async () => {
    const bytes = await xlsxOf({
      名单: [
        ['姓名', '年龄'],
        ['小明', 5],
      ],
      Music: [['Song']],
    });
    const r = await extractDocument(bytes, 'list.xlsx');
    expect(r).toMatchObject({ ok: true, kind: 'xlsx', pages: 2 });
    expect(r.ok && r.text).toBe('姓名\t年龄\n小明\t5\n\nSong');
  });

  it('reads a PDF’s text layer, page by page', async () => {
    const r = await extractDocument(minimalPdf([['Hello library'], ['Page two', 'more']]), 'a.pdf');
    expect(r).toMatchObject({ ok: true, kind: 'pdf', pages: 2 });
    const text = r.ok ? r.text : '';
    expect(text).toContain('Hello library');
    expect(text.indexOf('Page two')).toBeGreaterThan(text.indexOf('Hello library'));
    expect(text).toContain('more');
  });

  it('reads a .txt as UTF-8', async () => {
    const r = await extractDocument(new TextEncoder().encode('童谣 one'), 'a.txt');
    expect(r).toEqual({ ok: true, kind: 'txt', pages: 1, text: '童谣 one' });
  });

  it('says why nothing was extracted: scans, images, legacy formats, broken, empty, too large', async () => {
    expect(await extractDocument(minimalPdf([[]]), 'scan.pdf')).toEqual({ ok: false, reason: 'scanned', kind: 'pdf' });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]);
    expect(await extractDocument(png, 'photo.png', 'image/png')).toMatchObject({ ok: false, reason: 'image' });
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    expect(await extractDocument(ole, 'old.doc')).toMatchObject({ ok: false, reason: 'legacy' });
    expect(await extractDocument(ole, 'old.xls')).toMatchObject({ ok: false, reason: 'legacy' });
    expect(await extractDocument(new TextEncoder().encode('%PDF-1.4 garbage'), 'x.pdf')).toMatchObject({
      ok: false,
      reason: 'broken',
    });
    expect(await extractDocument(new Uint8Array(), 'a.txt')).toMatchObject({ ok: false, reason: 'empty' });
    expect(await extractDocument(new Uint8Array(EXTRACT_MAX_BYTES + 1), 'a.txt')).toMatchObject({
      ok: false,
      reason: 'tooLarge',
    });
    expect(await extractDocument(new Uint8Array([1, 2, 3]), 'a.bin')).toMatchObject({
      ok: false,
      reason: 'unsupported',
    });
  });

  it('trusts the bytes over the name: a PDF named .docx is read as a PDF', async () => {
    expect(docKindOf(minimalPdf([['x']]), 'fake.docx')).toBe('pdf');
    const r = await extractDocument(minimalPdf([['Named wrong']]), 'fake.docx');
    expect(r.ok && r.text).toContain('Named wrong');
  });
});
