/**
 * The `auth` namespace (sign-in, registration, the session's notices), in Chinese (the default): `t('auth.<key>')`.
 * `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
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
    subtitleTenant: '登录「{{tenant}}」',
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
    captcha: {
      label: '验证码',
      placeholder: '请输入验证码',
      required: '请输入验证码',
      refresh: '看不清？换一张',
      alt: '验证码图片',
      failed: '加载失败',
    },
    submit: '登录',
    failedTitle: '登录失败',
    succeeded: '登录成功',
    help: '忘记密码或没有账号？请联系学校管理员。',
  },
  thirdParty: {
    title: '其他登录方式',
    scan: '{{name}}扫码登录',
    with: '使用{{name}}登录',
  },
  social: {
    missing: '第三方登录返回的参数不完整，请重新发起登录',
    working: '正在完成第三方登录…',
    backToLogin: '返回登录',
  },
  register: {
    title: '账号注册',
    intro: '这个第三方账号还没有绑定平台账号。提交注册申请，管理员审核通过后即可登录。',
    tenant: '租户编号',
    name: '用户姓名',
    namePlaceholder: '请输入用户姓名',
    account: '账号名称',
    accountPlaceholder: '请输入账号名称',
    password: '密码',
    passwordPlaceholder: '请输入密码',
    password2: '确认密码',
    password2Placeholder: '请再次输入密码',
    submit: '确认',
    tenantRequired: '请先输入租户编号',
    accountRequired: '请先输入账号名称',
    passwordRequired: '请先输入密码',
    passwordMismatch: '两次密码输入不一致',
    submitted: '注册申请已提交,请耐心等待管理员通过!',
    failed: '提交失败',
  },
  sessionExpired: '登录状态已失效，请重新登录',
  inactivity: {
    title: '长时间未操作',
    text: '您已超过两小时未操作，为了账号安全，请先保存好正在编辑的内容，再重新登录。',
    relogin: '重新登录',
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type AuthMessages = typeof zhCN;
