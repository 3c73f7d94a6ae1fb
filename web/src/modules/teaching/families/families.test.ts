import { describe, expect, it } from 'vitest';
import { emptyContent, pathOf, type RecordFamily, toContent, validateValues } from '../../../kit/records/define';
import { en } from '../i18n/en';
import { zhCN } from '../i18n/zh-CN';
import { classSummaryFamily, classWorkFamily } from './classes';
import { currentSemester } from './common';
import { halfFlowFamily, halfFlowItemFamily } from './halfFlow';
import { teacherPlanFamily } from './plan';
import { projectFamily, researchFamily } from './research';

const FAMILIES: RecordFamily[] = [
  teacherPlanFamily,
  researchFamily,
  projectFamily,
  classWorkFamily,
  classSummaryFamily,
  halfFlowFamily,
  halfFlowItemFamily,
];

const lookup = (messages: unknown, key: string) =>
  key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);

describe('the teaching families as data', () => {
  it('name every label in both languages', () => {
    for (const family of FAMILIES)
      for (const field of family.fields.values()) {
        if (!field.label.startsWith('teaching.')) continue;
        const key = field.label.slice('teaching.'.length);
        expect(lookup(zhCN, key), `${family.kind} ${field.label}`).toBeTypeOf('string');
        expect(lookup(en, key), `${family.kind} ${field.label}`).toBeTypeOf('string');
      }
  });

  it('serve the spec’s calls from their tables', () => {
    expect(pathOf(teacherPlanFamily, 'remove')).toEqual({ method: 'GET', url: '/teacher_plan/plan/removeId' });
    expect(pathOf(classWorkFamily, 'byId')).toEqual({ method: 'GET', url: '/t_class_work/classwork/ForWorkId' });
    expect(pathOf(classSummaryFamily, 'byId')).toEqual({
      method: 'GET',
      url: '/t_class_summary/classsummary/ForSummaryId',
    });
    expect(pathOf(halfFlowItemFamily, 'items')).toEqual({
      method: 'GET',
      url: '/t_half_flow_list/halfflowlist/listById',
    });
    expect(pathOf(halfFlowItemFamily, 'save')).toEqual({
      method: 'POST',
      url: '/t_half_flow_list/halfflowlist/submit',
    });
    expect(pathOf(researchFamily, 'items')).toEqual({
      method: 'GET',
      url: '/teacher_research/listResearch/listForProjectId',
    });
    expect(halfFlowFamily.button('review')).toBe('half_follow_reply');
    expect(halfFlowFamily.items?.family).toBe(halfFlowItemFamily);
  });

  it('start a plan in this semester and send its schedule without empty rows', () => {
    const values = emptyContent(teacherPlanFamily);
    expect(values.semester).toBe(currentSemester());
    expect(currentSemester(new Date(2027, 0, 10))).toBe('2026-2027-1');
    expect(currentSemester(new Date(2027, 2, 1))).toBe('2026-2027-2');
    const content = toContent(teacherPlanFamily, {
      ...values,
      title: ' 计划 ',
      schedule: [
        { time: ' 9月 ', content: '常规' },
        { time: '', content: '  ' },
      ],
    });
    expect(content.title).toBe('计划');
    expect(content.schedule).toEqual([{ time: '9月', content: '常规' }]);
  });

  it('ask for a research activity’s host and a visit item’s observations', () => {
    const research = validateValues(researchFamily, {
      ...emptyContent(researchFamily),
      title: 't',
      date: '2026-11-26',
    });
    expect(Object.keys(research).sort()).toEqual(['form', 'hostId']);
    expect(research.hostId?.key).toBe('records.validation.choose');
    const item = validateValues(halfFlowItemFamily, { ...emptyContent(halfFlowItemFamily), segment: '离园' });
    expect(Object.keys(item)).toEqual(['observed']);
    expect(
      toContent(researchFamily, { ...emptyContent(researchFamily), participantIds: [1, 2] }).participantIds,
    ).toEqual(['1', '2']);
  });
});
