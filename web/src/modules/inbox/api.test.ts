import { describe, expect, it } from 'vitest';
import { messageHref } from './api';

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
});
