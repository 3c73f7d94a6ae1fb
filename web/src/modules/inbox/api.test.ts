import { beforeAll, describe, expect, it } from 'vitest';
import { CONTEXTS } from '../../app/contexts';
import { registerRecordRoutes } from '../../kit/records/registry';
import { messageHref } from './api';

// As the app does at start: every context's record kinds and their pages.
beforeAll(() => {
  for (const context of CONTEXTS) registerRecordRoutes(context.recordRoutes ?? {});
});

describe('where a message opens', () => {
  const m = (kind: string, event: 'returned' | 'approved' | 'resubmitted', parentId = '') => ({
    kind,
    event,
    recordId: '11',
    parentId,
  });

  it('a returned week its editor, any other week step its details, a plan its week', () => {
    expect(messageHref(m('week', 'returned'))).toBe('/week/week/?id=11');
    expect(messageHref(m('week', 'approved'))).toBe('/weekdetails/details?id=11');
    expect(messageHref(m('week', 'resubmitted'))).toBe('/weekdetails/details?id=11');
    expect(messageHref(m('week_plan', 'returned', '5'))).toBe('/weekdetails/details?id=5');
    expect(messageHref(m('day_plan', 'approved', '5'))).toBe('/weekdetails/details?id=5');
  });

  it('an observation family’s record its details; an unknown kind nowhere', () => {
    expect(messageHref(m('creview', 'returned'))).toBe('/creview/creviewDetails?id=11');
    expect(messageHref(m('observation_regional', 'approved'))).toBe(
      '/observation_regional/observationRegionalDetails?id=11',
    );
    expect(messageHref(m('hearken', 'approved'))).toBe('/hearken/hearkenDetails?id=11');
    expect(messageHref(m('something', 'approved'))).toBeNull();
  });

  it('a teaching family’s record its details, a visit’s item its visit', () => {
    expect(messageHref(m('teacher_plan', 'returned'))).toBe('/teacher_plan/planDetails?id=11');
    expect(messageHref(m('class_summary', 'approved'))).toBe('/classSummary/classSummaryDetails?id=11');
    expect(messageHref(m('research', 'returned'))).toBe('/teacher_research/researchDetails?id=11');
    expect(messageHref(m('half_flow_item', 'approved', '7'))).toBe('/halfFollow/halfFollowDetails?id=7');
    expect(messageHref(m('half_flow_item', 'approved'))).toBeNull();
  });
});
