/**
 * The `info` namespace (the personal information page), in Chinese (the default): `t('info.<key>')`.
 * `en.ts` has exactly these keys (its type says so).
 */
export const zhCN = {
  tabs: {
    profile: '个人信息',
    password: '修改密码',
  },
  profile: {
    name: '昵称',
    realName: '用户姓名',
    phone: '手机号码',
    email: '邮箱',
  },
  phone: {
    required: '手机号码不能为空',
    length: '手机号码长度不为11位',
    format: '手机号码格式不正确',
  },
  email: {
    format: '邮箱格式不正确',
  },
  avatar: {
    choose: '上传头像',
    hint: '支持 JPG、PNG 格式，大小不超过 500KB',
    uploaded: '头像上传成功，保存后生效',
    failed: '头像上传失败，请重试',
    badType: '上传头像图片只能是 JPG/PNG 格式!',
    tooBig: '上传头像图片大小不能超过 500KB!',
  },
  password: {
    old: '原密码',
    new: '新密码',
    confirm: '确认密码',
    submit: '修改密码',
    changed: '密码修改成功，其他设备上的登录已退出',
    oldRequired: '请输入原密码',
    newRequired: '请输入新密码',
    confirmRequired: '请再次输入新密码',
    mismatch: '两次密码输入不一致',
  },
};

/** Its shape (every text a `string`): what `en.ts` must match. */
export type InfoMessages = typeof zhCN;
