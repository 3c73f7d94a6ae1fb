import { AppError } from '../errors';
import { registerMessages } from '../i18n';

registerMessages({
  zh: {
    'flow.unknownElement': '流程元素不存在：{id}',
    'flow.noInstance': '流程实例不存在',
    'flow.alreadyStarted': '流程实例已启动',
    'flow.noStart': '流程没有可启动的开始事件',
    'flow.suspended': '流程已挂起，请先激活',
    'flow.finished': '流程已结束',
    'flow.noTask': '任务不存在：{id}',
    'flow.taskDone': '该任务已办理或已取消',
    'flow.taskClaimed': '该任务已被他人签收',
    'flow.alreadyYours': '该任务已是您的待办',
    'flow.notCandidate': '您不是该任务的候选人，不能签收',
    'flow.claimFirst': '请先签收该任务',
    'flow.notAssignee': '该任务不是您的待办，不能办理',
    'flow.noPath': '网关 {id} 没有满足条件的出口',
    'flow.badExpression': '表达式无法计算：{expression}',
    'flow.badTimer': '定时器 {id} 的时间无效',
    'flow.badXml': 'BPMN XML 无法解析：{reason}',
    'flow.unsupported': '流程元素 {id} 不受支持：{reason}',
    'flow.definitionSuspended': '该流程定义已挂起，不能发起',
    'flow.noDefinition': '流程定义不存在：{id}',
    'flow.noHandler': '服务任务的处理器未注册：{handler}',
  },
  en: {
    'flow.unknownElement': 'No such process element: {id}',
    'flow.noInstance': 'No such process instance',
    'flow.alreadyStarted': 'The process instance has already started',
    'flow.noStart': 'The process has no start event to start from',
    'flow.suspended': 'The process is suspended; activate it first',
    'flow.finished': 'The process has finished',
    'flow.noTask': 'No such task: {id}',
    'flow.taskDone': 'This task was already handled or cancelled',
    'flow.taskClaimed': 'This task was already claimed by someone else',
    'flow.alreadyYours': 'This task is already yours',
    'flow.notCandidate': 'You are not a candidate for this task and cannot claim it',
    'flow.claimFirst': 'Claim this task first',
    'flow.notAssignee': 'This task is not assigned to you',
    'flow.noPath': 'No outgoing flow of gateway {id} applies',
    'flow.badExpression': 'The expression cannot be evaluated: {expression}',
    'flow.badTimer': 'The time of timer {id} is not valid',
    'flow.badXml': 'The BPMN XML cannot be read: {reason}',
    'flow.unsupported': 'Element {id} is not supported: {reason}',
    'flow.definitionSuspended': 'This process definition is suspended; it cannot be started',
    'flow.noDefinition': 'No such process definition: {id}',
    'flow.noHandler': 'No handler is registered for the service task: {handler}',
  },
});

/** A refused workflow step or model: 400 with the message in the caller's language; nothing is written. */
export class FlowError extends AppError {
  constructor(messageKey: string, params?: Record<string, string | number>) {
    super('bad_request', messageKey, params);
    this.name = 'FlowError';
  }
}
