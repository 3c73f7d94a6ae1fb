/** The `teacher` namespace (教师档案), in Chinese (the default). `en.ts` has exactly these keys. */
export const zhCN = {
  name: '教师档案',
  teacherName: '姓名',
  teacherNo: '教师编号',
  userId: '登录账号',
  gender: '性别',
  birthDate: '出生日期',
  ethnicity: '民族',
  staffing: '编制',
  politicalStatus: '政治面貌',
  education: '学历',
  major: '专业',
  graduateSchool: '毕业院校',
  teacherCertificate: '教师资格证',
  socialWorkQualification: '社工资格',
  mandarinLevel: '普通话等级',
  professionalTitle: '职称',
  hireDate: '入职日期',
  phone: '手机号码',
  deptId: '所属部门',
  postId: '所属岗位',
  remark: '备注',
  genders: { male: '男', female: '女' },
  rules: { phone: '请输入 11 位手机号码' },
  sheet: {
    title: '导入教师档案',
    templateFile: '教师导入模板.xlsx',
    exportFile: '教师档案.xlsx',
  },
};

export type TeacherMessages = typeof zhCN;
