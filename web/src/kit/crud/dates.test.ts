import { describe, expect, it } from 'vitest';
import { fromDateText, formValueOf, nowText, pickerValue, rangeBounds, rangeKeys, toDateText } from './dates';
import { defineCrud, emptyForm, formOf, listParams, submitBody } from './define';

describe('date texts (the server writes yyyy-MM-dd HH:mm:ss)', () => {
  it('reads a text as the date it names, in the browser clock', () => {
    const d = fromDateText('2026-11-26 07:05:09');
    expect(d && [d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()]).toEqual([
      2026, 10, 26, 7, 5, 9,
    ]);
    expect(fromDateText('2026-11-26')?.getHours()).toBe(0);
    expect(fromDateText(' 2026-11-26 07:05 ')?.getMinutes()).toBe(5);
  });

  it('reads nothing from an empty, wrong or impossible text', () => {
    for (const bad of [
      '',
      '   ',
      null,
      undefined,
      42,
      'yesterday',
      '26/11/2026',
      '2026-02-30',
      '2026-11-26 25:00:00',
      '2026-13-01',
    ])
      expect(fromDateText(bad)).toBeNull();
  });

  it('writes a date as the server text, padded, and nothing for no date', () => {
    expect(toDateText(new Date(2026, 0, 5, 8, 3, 1))).toBe('2026-01-05 08:03:01');
    expect(toDateText(new Date(2026, 0, 5, 8, 3, 1), false)).toBe('2026-01-05');
    expect(toDateText(null)).toBe('');
    expect(toDateText(new Date('nope'))).toBe('');
  });

  it('round-trips: the picker shows the detail’s text and hands back the same text', () => {
    const text = '2026-11-26 07:05:09';
    expect(pickerValue(text)).toBe(text);
    expect(formValueOf(pickerValue(text))).toBe(text);
    expect(formValueOf(new Date(2026, 10, 26, 7, 5, 9))).toBe(text);
    // A short text gains its seconds; a wrong one shows an empty picker; clearing leaves ''.
    expect(pickerValue('2026-11-26 07:05')).toBe('2026-11-26 07:05:00');
    expect(pickerValue('soon')).toBeNull();
    expect(formValueOf(null)).toBe('');
  });

  it('now is a server text of this minute', () => {
    expect(nowText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Math.abs((fromDateText(nowText())?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('a range of days searches from the first day’s start to the last day’s end', () => {
    expect(rangeKeys('releaseTime')).toEqual(['releaseTime_dategt', 'releaseTime_datelt']);
    expect(rangeBounds('2026-11-01', '2026-11-03')).toEqual(['2026-11-01 00:00:00', '2026-11-03 23:59:59']);
    expect(rangeBounds('2026-11-01', null)).toEqual(['2026-11-01 00:00:00', '']);
    expect(rangeBounds(null, undefined)).toEqual(['', '']);
  });
});

describe('a datetime column in a screen', () => {
  const def = defineCrud({
    resource: '/x/notice',
    texts: 'n',
    columns: [{ prop: 'title' }, { prop: 'releaseTime', type: 'datetime', search: 'range', initial: nowText }],
  });

  it('starts a new record at now, asked when the form opens', () => {
    const value = emptyForm(def).releaseTime;
    expect(fromDateText(value)).not.toBeNull();
    expect(Math.abs((fromDateText(value)?.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('sends back the detail’s text unchanged', () => {
    const values = formOf(def, { id: '9', title: 'a', releaseTime: '2026-11-26 07:05:09' });
    expect(submitBody(def, values, '9')).toEqual({ id: '9', title: 'a', releaseTime: '2026-11-26 07:05:09' });
  });

  it('searches the picked range as <prop>_dategt/_datelt, an open end left out', () => {
    const paging = { current: 1, size: 10 };
    const [from, to] = rangeBounds('2026-11-01', '2026-11-03');
    expect(listParams(def, { releaseTime_dategt: from, releaseTime_datelt: to }, paging)).toEqual({
      current: 1,
      size: 10,
      releaseTime_dategt: '2026-11-01 00:00:00',
      releaseTime_datelt: '2026-11-03 23:59:59',
    });
    expect(listParams(def, { releaseTime_dategt: from, releaseTime_datelt: '' }, paging)).toEqual({
      current: 1,
      size: 10,
      releaseTime_dategt: '2026-11-01 00:00:00',
    });
    expect(listParams(def, { releaseTime: 'x' }, paging)).toEqual({ current: 1, size: 10 });
  });
});
