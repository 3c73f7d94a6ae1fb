import { describe, expect, it } from 'vitest';
import { rangeBounds } from '../../../kit/crud/dates';
import { FIRST_PAGE, formColumns, listParams, searchColumns } from '../../../kit/crud/define';
import { apiLog, errorLog, usualLog } from './logs';

describe('the log screens', () => {
  it('read only: a view button and nothing that writes', () => {
    expect(apiLog.buttons).toEqual({ view: 'log_api_view' });
    expect(usualLog.buttons).toEqual({ view: 'log_usual_view' });
    expect(errorLog.buttons).toEqual({ view: 'log_error_view' });
  });

  it('each filters by a range of days on the time it shows, and by its own fields', () => {
    const searched = (def: typeof apiLog) => searchColumns(def).map((c) => [c.prop, c.search]);
    expect(searched(apiLog)).toEqual([
      ['createTime', 'range'],
      ['createBy', true],
      ['method', true],
      ['requestUri', true],
      ['status', true],
    ]);
    expect(searched(usualLog)).toEqual([
      ['createTime', 'range'],
      ['logLevel', true],
      ['logId', true],
      ['createBy', true],
    ]);
    expect(searched(errorLog)).toEqual([
      ['createTime', 'range'],
      ['type', true],
      ['createBy', true],
      ['requestUri', true],
    ]);
  });

  it('a range of one day asks for that whole day (the last day is included, not cut at its midnight)', () => {
    for (const def of [apiLog, usualLog, errorLog]) {
      const [from, to] = rangeBounds('2026-11-26', '2026-11-26');
      expect(listParams(def, { createTime_dategt: from, createTime_datelt: to }, FIRST_PAGE)).toEqual({
        current: 1,
        size: FIRST_PAGE.size,
        createTime_dategt: '2026-11-26 00:00:00',
        createTime_datelt: '2026-11-26 23:59:59',
      });
      // An open end sends only the other.
      expect(listParams(def, { createTime_dategt: from, createTime_datelt: '' }, FIRST_PAGE)).not.toHaveProperty(
        'createTime_datelt',
      );
    }
  });

  it('the entry’s view shows when it happened and the call’s parameters', () => {
    expect(formColumns(apiLog, 'view', {}).map((c) => c.prop)).toEqual(
      expect.arrayContaining(['createTime', 'params']),
    );
  });
});
