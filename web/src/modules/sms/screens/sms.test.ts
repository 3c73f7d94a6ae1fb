import { describe, expect, it } from 'vitest';
import { actionBody } from '../../../kit/crud/actions';
import { formColumns, submitBody, validateForm } from '../../../kit/crud/define';
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

  it('searches the message log by phone, status and time, read only', () => {
    expect(smsLog.buttons).toEqual({});
    expect(smsLog.resource).toBe('/blade-resource/sms/log');
    expect(smsLog.columns.filter((c) => c.search).map((c) => c.prop)).toEqual([
      'phone',
      'status',
      'createTime_dategt',
      'createTime_datelt',
    ]);
  });
});
