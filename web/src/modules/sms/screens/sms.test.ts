import { describe, expect, it } from 'vitest';
import { actionBody } from '../../../kit/crud/actions';
import { rangeBounds } from '../../../kit/crud/dates';
import { FIRST_PAGE, formColumns, listParams, submitBody, validateForm } from '../../../kit/crud/define';
import { smsConfigs, smsLog } from './sms';

describe('the SMS screens', () => {
  it('shows an HTTP provider’s fields only for the http category, and neither checks nor sends them otherwise', () => {
    const props = (category: string) => formColumns(smsConfigs, 'add', { category }).map((c) => c.prop);
    expect(props('log')).toEqual(['smsCode', 'category', 'signName', 'remark']);
    expect(props('http')).toEqual([
      'smsCode',
      'category',
      'templateId',
      'signName',
      'endpoint',
      'accessKey',
      'secretKey',
      'regionId',
      'remark',
    ]);
    const log = { smsCode: 'a', category: 'log', endpoint: '', templateId: 'left over', secretKey: 'x' };
    expect(validateForm(smsConfigs, log, 'add')).toEqual({});
    expect(submitBody(smsConfigs, log)).toEqual({ smsCode: 'a', category: 'log' });
    const http = { ...log, category: 'http', endpoint: 'ftp://x' };
    expect(Object.keys(validateForm(smsConfigs, http, 'add'))).toEqual(['endpoint', 'accessKey']);
    expect(validateForm(smsConfigs, http, 'add').endpoint?.key).toBe('sms.config.rules.endpointFormat');
  });

  it('enables only disabled rows, behind sms_enable; sends a test through the row’s configuration', () => {
    const enable = smsConfigs.actions?.find((a) => a.key === 'enable');
    expect(enable).toMatchObject({ button: 'sms_enable', path: 'enable', when: { status: 1 } });
    const send = smsConfigs.formActions?.find((a) => a.key === 'send');
    expect(send?.button).toBe('sms_send');
    const body = actionBody(smsConfigs, send!, [{ id: '42', smsCode: 'demo-log' }], {
      phones: ' 13800000001,13800000002 ',
      params: '{"code":"1"}',
    });
    expect(body).toEqual({ id: '42', phones: '13800000001,13800000002', params: '{"code":"1"}' });
    const phones = send?.columns.find((c) => c.prop === 'phones');
    expect(phones?.rules?.pattern?.[0].test('13800000001, 13900000002')).toBe(true);
    expect(phones?.rules?.pattern?.[0].test('1380000000')).toBe(false);
  });

  it('searches the message log by phone, status and a range of days that includes both ends, read only', () => {
    expect(smsLog.buttons).toEqual({});
    expect(smsLog.resource).toBe('/blade-resource/sms/log');
    expect(smsLog.columns.filter((c) => c.search).map((c) => [c.prop, c.search])).toEqual([
      ['createTime', 'range'],
      ['phone', true],
      ['status', true],
    ]);
    // 1 to 3 November picked: the list asks from the 1st's first second to the 3rd's last.
    const [from, to] = rangeBounds('2026-11-01', '2026-11-03');
    const params = listParams(smsLog, { createTime_dategt: from, createTime_datelt: to, phone: ' 138 ' }, FIRST_PAGE);
    expect(params).toMatchObject({
      createTime_dategt: '2026-11-01 00:00:00',
      createTime_datelt: '2026-11-03 23:59:59',
      phone: '138',
    });
    expect(Object.keys(params)).not.toContain('createTime');
  });
});
