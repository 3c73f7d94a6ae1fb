/**
 * Chinese (default) messages. Keys are stable ids; `en.ts` must have the same shape
 * (enforced by the `Messages` type), so both languages always ship complete.
 */
export const zhCN = {
  app: {
    title: '萌芽教学管理平台',
    shortName: '萌芽',
    copyright: '© 萌芽教学管理平台',
  },
  language: {
    label: '界面语言',
    zh: '中文',
    en: 'English',
  },
  common: {
    loading: '正在加载…',
    backHome: '返回首页',
    reload: '重新加载',
    close: '关闭',
  },
  errors: {
    unknown: '未知错误',
    network: '无法连接到服务器，请检查网络后重试',
    timeout: '服务器响应超时，请稍后重试',
    pageCrashedTitle: '页面出了点小状况',
    pageCrashedText: '请重新加载页面；如果问题仍然存在，请联系学校管理员。',
  },
  auth: {
    brand: {
      tagline: '让教学有序，让成长看得见',
      features: {
        plans: '教案与活动计划',
        observations: '观察记录与审议',
        growth: '教师成长档案',
      },
    },
    login: {
      title: '欢迎登录',
      subtitle: '请使用学校分配的账号登录平台',
      tenant: {
        label: '租户编号',
        placeholder: '请输入租户编号',
        required: '请输入租户编号',
      },
      account: {
        label: '账号',
        placeholder: '请输入账号',
        required: '请输入账号',
      },
      password: {
        label: '密码',
        placeholder: '请输入密码',
        required: '请输入密码',
        show: '显示密码',
        hide: '隐藏密码',
      },
      submit: '登录',
      failedTitle: '登录失败',
      succeeded: '登录成功',
      help: '忘记密码或没有账号？请联系学校管理员。',
    },
  },
  notFound: {
    title: '哎呀，页面走丢了',
    text: '您要找的页面不存在，或者已经搬到别处去了。',
  },
};

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

/** The shape every language file must match. */
export type Messages = Widen<typeof zhCN>;
