import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { renderRecordSheet } from './sheet';
import { docxParagraphs, docxPart } from './testing';

const doc = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

describe('one record as a printed sheet', () => {
  it('prints the school, title, facts, the non-empty sections in order and the photos', async () => {
    // The bytes are embedded as given (the caller scales and converts): a JPEG's start and end markers.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
    const file = await renderRecordSheet({
      school: '萌芽实验幼儿园',
      title: '建构区：我们的幼儿园',
      facts: [
        ['班级', '小一班'],
        ['幼儿', '王小明、李朵朵'],
      ],
      sections: [
        { label: '观察实录', value: doc('两名幼儿合作搭建大门') },
        { label: '反思', value: '' },
        { label: '分析与评价', value: '能在失败后调整方法' },
      ],
      photosLabel: '照片',
      photos: [{ data: jpeg, type: 'jpg', width: 1600, height: 800 }],
    });
    const text = docxParagraphs(file);
    expect(text.slice(0, 2)).toEqual(['萌芽实验幼儿园', '建构区：我们的幼儿园']);
    expect(text).toEqual(expect.arrayContaining(['班级', '小一班', '幼儿', '王小明、李朵朵']));
    const body = text.filter((p) => p && !['班级', '小一班', '幼儿', '王小明、李朵朵'].includes(p)).slice(2);
    expect(body).toEqual(['观察实录', '两名幼儿合作搭建大门', '分析与评价', '能在失败后调整方法', '照片']);
    expect(text).not.toContain('反思');
    expect(Object.keys(unzipSync(file)).filter((n) => n.startsWith('word/media/'))).toHaveLength(1);
    // Scaled to the page's text width (560 px at 96 dpi = 5334000 EMU), its proportions kept.
    expect(docxPart(file, 'word/document.xml')).toContain('cx="5334000" cy="2667000"');
  });
});
