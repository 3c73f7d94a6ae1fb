import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { docNameOf, parseDocName } from './doc-name';
import { docToRecordContent, LIVE_RECORD_DOCS, RECORD_MAP, recordContentToDoc } from './record-doc';

const shape = LIVE_RECORD_DOCS.class_summary;
const rich = (text: string) => ({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });
const content = {
  title: '小一班学期总结',
  classId: '12',
  semester: '2026-2027-1',
  domains: [{ domain: 'health', content: '坚持晨练' }],
  highlights: rich('豆芽观察'),
  problems: '',
  nextSteps: rich('继续种植'),
};

describe('a co-edited record as a Y.Doc', () => {
  it('holds the content: rich fields as fragments, the rest in the record map', () => {
    const doc = new Y.Doc();
    recordContentToDoc(shape, content, doc);
    expect(doc.getMap(RECORD_MAP).get('title')).toBe('小一班学期总结');
    expect(doc.getMap(RECORD_MAP).has('highlights')).toBe(false);
    expect(doc.getXmlFragment('highlights').length).toBe(1);
    expect(docToRecordContent(shape, doc)).toEqual(content);
  });

  it('writing the same content again changes nothing; a change touches only what differs', () => {
    const doc = new Y.Doc();
    recordContentToDoc(shape, content, doc);
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    recordContentToDoc(shape, content, doc);
    expect(updates).toHaveLength(0);
    recordContentToDoc(shape, { ...content, title: '新标题' }, doc);
    expect(updates).toHaveLength(1);
    expect(docToRecordContent(shape, doc)).toEqual({ ...content, title: '新标题' });
  });

  it('names documents of the co-edited kinds only', () => {
    expect(parseDocName(docNameOf('class_summary', '42'))).toEqual({ kind: 'class_summary', id: '42' });
    expect(parseDocName('class_work:7')).toEqual({ kind: 'class_work', id: '7' });
    expect(parseDocName('week:7')).toEqual({ kind: 'week', id: '7' });
    expect(parseDocName('research:7')).toBeNull();
    expect(parseDocName('class_summary:x')).toBeNull();
  });
});
