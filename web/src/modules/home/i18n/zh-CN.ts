/**
 * The `home` namespace (the welcome page, the dashboard and the test page), in Chinese (the default): `t('home.<key>')`.
 * `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  greeting: {
    morning: '早上好，{{name}}',
    noon: '中午好，{{name}}',
    afternoon: '下午好，{{name}}',
    evening: '晚上好，{{name}}',
  },
  tagline: '祝您今天的教学工作顺利愉快！',
  tenant: '租户 {{tenant}}',
  shortcuts: {
    title: '快捷入口',
    empty: '菜单加载后，这里会显示常用功能。',
  },
  notices: {
    title: '通知公告',
    empty: '暂无通知公告',
  },
  start: {
    title: '开始使用',
    tutorial: {
      title: '阅读平台教程',
      text: '五分钟了解备课、观察记录和审核流程。',
      action: '打开教程',
    },
    info: {
      title: '完善个人信息',
      text: '上传头像，填写手机号和邮箱。',
      action: '去完善',
    },
    look: {
      title: '选择喜欢的外观',
      text: '十一套主题、主题色和中英文界面随心切换。',
      action: '了解外观设置',
    },
  },
  dashboard: {
    screens: '可用页面',
    permissions: '操作权限',
    tabs: '已打开标签',
    errors: '本地错误',
    account: {
      title: '账号信息',
      account: '账号',
      tenant: '租户',
      roles: '角色',
      signedIn: '令牌签发时间',
    },
    session: {
      title: '登录会话',
      refreshIn: '距下次自动续期',
      seconds: '{{count}} 秒',
      explain: '令牌每 {{seconds}} 秒自动续期一次，多个标签页只会续期一次。',
    },
  },
  testPage: {
    keepAlive: {
      title: '页面缓存',
      text: '这个页面会被缓存：修改下面的内容后切换到其他标签再回来，内容仍然保留；“清除缓存”后会重置。',
      counter: '计数',
      notes: '笔记',
    },
    permissions: {
      title: '按钮权限',
      text: '绿色表示您有该操作权限，灰色表示没有。界面只负责隐藏，服务器仍会校验每一次操作。',
    },
    errors: {
      title: '错误日志',
      text: '下面的按钮会故意制造一个前端错误，用来检查错误日志是否正常记录。',
      throw: '制造一个错误',
      reject: '制造一个未处理的 Promise 拒绝',
      sample: '这是测试页制造的示例错误',
      sampleRejection: '这是测试页制造的示例 Promise 拒绝',
    },
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type HomeMessages = typeof zhCN;
