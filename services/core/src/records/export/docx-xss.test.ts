import { describe, expect, it } from 'vitest';
import { docxThreats, XSS_STRINGS, xssDoc } from '../../testing/xss';
import { renderWeekDocx } from './docx';
import { sampleWeekExport } from './sample';
import { docxPart, docxText } from './testing';

/**
 * The Word export of a week full of XSS payloads, as stored before sanitising existed (the
 * export must not depend on the write path): nothing in the file can run or link anywhere,
 * and every payload is printed as the text it is.
 */
describe('Word export of hostile rich text', () => {
  it('prints payloads as text, with no script, HTML part, hyperlink or foreign relationship', async () => {
    const input = sampleWeekExport();
    const dirty = xssDoc() as never;
    input.week = {
      ...input.week,
      theme: XSS_STRINGS[0] as string,
      weeklyGoals: dirty,
      environment: XSS_STRINGS.join('\n'),
      homeCooperation: dirty,
      reflection: dirty,
      days: input.week.days.map((d, i) => ({ ...d, morning: XSS_STRINGS[i] as string })),
    };
    input.plans = input.plans.map((p) => ({ ...p, goals: dirty, process: dirty }));
    input.reviewComment = XSS_STRINGS[2] as string;
    const buffer = await renderWeekDocx(input, 'zh');

    expect(docxThreats(buffer)).toEqual([]);
    const text = await docxText(buffer);
    for (const s of XSS_STRINGS) expect(text).toContain(s);
    expect(text).toContain('keep: good link 0');
    // The markup is escaped text in the XML, never an element.
    expect(docxPart(buffer, 'word/document.xml')).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
  });

  it('finds what it looks for (the check itself can fail)', async () => {
    const { zipSync, strToU8, unzipSync } = await import('fflate');
    const clean = await renderWeekDocx(sampleWeekExport(), 'zh');
    const files = unzipSync(clean);
    files['word/_rels/document.xml.rels'] = strToU8(
      '<Relationships><Relationship Id="rX" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="javascript:alert(1)" TargetMode="External"/></Relationships>',
    );
    files['word/afchunk.html'] = strToU8('<script>alert(1)</script>');
    expect(docxThreats(zipSync(files))).toEqual([
      'word/_rels/document.xml.rels: relationship to javascript:alert(1)',
      'word/afchunk.html: an active or HTML part',
      'word/afchunk.html: a script element',
    ]);
  });
});
