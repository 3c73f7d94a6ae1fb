import { z } from 'zod';
import { registerMessages } from '@sprout/core/i18n';
import type { ServerContext } from '../../context';
import { optionalText, requiredText } from '../../http/params';
import { defineResource } from '../../http/resource';

registerMessages({
  zh: {
    'param.name': '请输入参数名称',
    'param.key': '请输入参数键名',
    'param.value': '请输入参数键值',
    'param.keyTaken': '参数键名已存在：{paramKey}',
  },
  en: {
    'param.name': 'Please enter the parameter name',
    'param.key': 'Please enter the parameter key',
    'param.value': 'Please enter the parameter value',
    'param.keyTaken': 'A parameter with the key {paramKey} already exists',
  },
});

/** Parameters (spec §3, §5): a tenant's named settings, each a unique key and its value. */
export const params = defineResource({
  code: 'param',
  label: { zh: '参数', en: 'parameter' },
  fields: z.object({
    paramName: requiredText(255, '$param.name'),
    paramKey: requiredText(255, '$param.key'),
    paramValue: requiredText(10_000, '$param.value'),
    remark: optionalText(255),
  }),
  filters: { paramName: 'like', paramKey: 'like' },
  unique: { fields: ['paramKey'], message: 'param.keyTaken' },
});

/** The parameter context's manifest (services/api/src/context.ts). */
export const paramContext: ServerContext = {
  name: 'param',
  routes: params,
  menus: [
    {
      section: 'system',
      menus: [
        params.menu({
          name: '参数管理',
          nameEn: 'Parameters',
          path: '/system/param',
          icon: 'iconfont iconicon_community_line',
          sort: 9,
        }),
      ],
    },
  ],
  demo: (trx, world) =>
    params.insert(trx, world.tenantId, [
      { paramName: '半日计划版式', paramKey: 'plan.halfDay.layout', paramValue: 'standard', remark: '或 tongxing' },
      { paramName: '当前学年', paramKey: 'school.year', paramValue: '2026-2027' },
      { paramName: '周计划提交截止', paramKey: 'week.submitDeadline', paramValue: '周五 17:00' },
    ]),
};
