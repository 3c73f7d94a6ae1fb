import { registerMessages } from '@sprout/core/i18n';
import type { ServerContext } from '../../context';
import { SMS_BASE, smsConfigs, smsLog } from './sms-resource';
import { smsRoutes } from './sms-routes';

export { DEFAULT_LIMITS, LIMIT_PARAMS } from './limits';
export type { SmsConfig, SmsMessage, SmsOutcome, SmsProvider } from './provider';
export { signBody } from './provider';
export { type SmsSend, sendSms, smsProviders } from './send';

registerMessages({
  zh: {
    'sms.category': '请选择短信服务商分类（log 或 http）',
    'sms.smsCode': '请输入资源编号',
    'sms.smsCodeFormat': '资源编号须为 1 至 64 个字母、数字、点、下划线或连字符',
    'sms.templateId': '请输入模板ID',
    'sms.accessKey': '请输入 accessKey',
    'sms.secretKey': '请输入 secretKey',
    'sms.secretKeyFormat': 'secretKey 至多 255 个字符，首尾不能有空格',
    'sms.endpoint': '请输入服务地址',
    'sms.endpointFormat': '服务地址须为 http 或 https 地址',
    'sms.codeTaken': '资源编号已存在：{smsCode}',
    'sms.removeEnabled': '已启用的短信配置不能删除：{smsCode}，请先启用其他配置',
    'sms.phones': '请输入手机号',
    'sms.phoneFormat': '手机号格式不正确：{phones}',
    'sms.tooManyPhones': '一次最多发送 {max} 个手机号',
    'sms.paramsFormat': '短信参数须为 JSON 对象，例如 {"code":"1234"}',
    'sms.noneEnabled': '没有已启用的短信配置，请先在短信配置中启用一个',
    'sms.noSuchCode': '短信配置不存在：{code}',
    'sms.limitPhoneMinute': '手机号 {phone} 每分钟最多发送 {limit} 条短信，请稍后再试',
    'sms.limitPhoneDay': '手机号 {phone} 每天最多发送 {limit} 条短信，今日已达上限',
    'sms.limitTenantDay': '本租户每天最多发送 {limit} 条短信（今日已发送 {used} 条），今日已达上限',
    'sms.failed': '短信发送失败：{reason}',
    'sms.sent': '发送成功',
  },
  en: {
    'sms.category': 'Please choose the provider category (log or http)',
    'sms.smsCode': 'Please enter the code',
    'sms.smsCodeFormat': 'The code is 1 to 64 letters, digits, dots, underscores or hyphens',
    'sms.templateId': 'Please enter the template id',
    'sms.accessKey': 'Please enter the access key',
    'sms.secretKey': 'Please enter the secret key',
    'sms.secretKeyFormat': 'A secret key is at most 255 characters, without spaces at either end',
    'sms.endpoint': 'Please enter the endpoint',
    'sms.endpointFormat': 'The endpoint must be an http or https address',
    'sms.codeTaken': 'An SMS setting with the code {smsCode} already exists',
    'sms.removeEnabled': 'The enabled SMS setting {smsCode} cannot be deleted: enable another one first',
    'sms.phones': 'Please enter the phone numbers',
    'sms.phoneFormat': 'Not a valid mobile number: {phones}',
    'sms.tooManyPhones': 'At most {max} phone numbers in one send',
    'sms.paramsFormat': 'The parameters must be a JSON object, e.g. {"code":"1234"}',
    'sms.noneEnabled': 'No SMS setting is enabled: enable one under SMS first',
    'sms.noSuchCode': 'No such SMS setting: {code}',
    'sms.limitPhoneMinute': 'At most {limit} messages a minute to {phone}: try again later',
    'sms.limitPhoneDay': 'At most {limit} messages a day to {phone}: today’s limit is reached',
    'sms.limitTenantDay':
      'At most {limit} messages a day for this tenant ({used} sent today): today’s limit is reached',
    'sms.failed': 'The message was not sent: {reason}',
    'sms.sent': 'Sent',
  },
});

/** The SMS context's manifest (services/api/src/context.ts): configurations, sending, the message log. */
export const smsContext: ServerContext = {
  name: 'sms',
  routes: async (app) => {
    await app.register(smsConfigs);
    await app.register(smsLog);
    await app.register(smsRoutes);
  },
  menus: [
    {
      section: 'resource',
      menus: [
        smsConfigs.menu({
          name: '短信配置',
          nameEn: 'SMS',
          path: '/resource/sms',
          icon: 'iconfont iconicon_message',
          sort: 2,
          buttons: [
            { code: 'sms_enable', name: '启用', nameEn: 'Enable', api: [`POST ${SMS_BASE}/enable`] },
            {
              code: 'sms_send',
              name: '发送测试短信',
              nameEn: 'Send a test message',
              api: [`POST ${SMS_BASE}/endpoint/send-message`],
            },
          ],
        }),
      ],
    },
  ],
  // The demo kindergarten sends through the log provider: messages land in its message log.
  demo: (trx, world) =>
    smsConfigs.insert(trx, world.tenantId, [
      {
        category: 'log',
        smsCode: 'demo-log',
        signName: '萌芽幼儿园',
        templateId: 'notice',
        status: 2,
        remark: '内置：短信写入短信记录',
      },
    ]),
};
