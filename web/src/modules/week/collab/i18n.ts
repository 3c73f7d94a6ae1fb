import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n';

/**
 * The texts of live co-editing, in both languages, registered with i18next under
 * `weekCollab.*` when the editor loads (kept out of the shared catalogues, which other work
 * on the lesson-plan screens was changing at the same time).
 */
const zhCN = {
  status: {
    connecting: '正在连接…',
    syncing: '同步中…',
    saved: '已保存',
    savedTip: '所有修改都已保存到服务器（{{time}}）。同时在编辑的老师会立即看到。',
    syncingTip: '正在把修改发送到服务器，并确认已经保存。',
    offline: '离线（修改已保存在本机）',
    offlineTip: '连不上服务器。修改保存在这台设备上，网络恢复后会自动同步，并与其他老师的修改合并。',
    offlineNoLocal: '离线（修改暂存在本页，请勿关闭）',
    offlineNoLocalTip: '连不上服务器，这台设备也无法保存副本。请保持页面打开，网络恢复后会自动同步。',
    readOnly: '只读',
    readOnlyTip: '这份备课已提交审核，或您已不能编辑它：可以查看最新内容，但修改不会被保存。',
    readOnlyUnsaved: '只读（本机有未能保存的修改）',
    denied: '无权编辑',
    deniedTip: '服务器拒绝了这份备课的协同编辑：您没有编辑它的权限。',
    direct: '直接保存',
    directTip: '实时协同不可用：修改会直接保存到服务器（与平常的自动保存一样），其他老师不会实时看到。',
    replaced: '正在重新打开…',
  },
  presence: {
    label: '正在编辑的人',
    you: '{{name}}（我）',
    inField: '{{name}} · 正在编辑“{{field}}”',
    here: '{{name}} · 在本页',
  },
  saveRevision: '保存版本',
  saveRevisionTip: '把当前内容保存为一个版本（历史中可见，注明参与编辑的人）。停止编辑 10 秒后也会自动保存版本。',
  revisionSaved: '已保存为新版本',
  revisionNothingNew: '自上个版本以来没有新的修改',
  historyAuthors: '参与编辑：{{names}}',
  notSynced: '还有修改没有同步到服务器，请连接网络后再试',
  connectingTitle: '正在打开协同编辑…',
  connectingSlow: '暂时连不上协同编辑服务，正在重试。这台设备上没有这份备课的副本，连上后即可编辑。',
  deniedTitle: '不能编辑这份备课',
  deniedText: '服务器拒绝了协同编辑（您可能没有编辑它的权限）。',
  readOnlyTitle: '这份备课现在是只读的',
  readOnlyText: '它可能刚被提交审核，或者您的编辑权限有变化。页面显示最新内容，但修改不会被保存。',
  readOnlyUnsavedText: '这台设备上有未能保存到服务器的修改，它们不会被保存。',
  unavailableTitle: '实时协同不可用，修改会直接保存',
  unavailableText:
    '这台服务器没有提供实时协同编辑。您可以照常编辑，修改会自动保存；同时编辑的老师要刷新页面才能看到彼此的修改。',
  replacedTitle: '这份备课已按服务器上的内容重新打开',
  replacedText: '服务器上的这份备课已被恢复或重置，本机保存的旧副本已作废，页面显示的是服务器上的内容。',
  replacedDroppedText: '本机有尚未同步到服务器的修改，它们属于旧的副本，已被丢弃，请核对后重新填写。',
  dismiss: '知道了',
};

const en: typeof zhCN = {
  status: {
    connecting: 'Connecting…',
    syncing: 'Syncing…',
    saved: 'Saved',
    savedTip: 'Every change is stored on the server ({{time}}). Everyone editing sees it at once.',
    syncingTip: 'Sending changes to the server and confirming they are stored.',
    offline: 'Offline — changes kept on this device',
    offlineTip:
      'The server cannot be reached. Changes are kept on this device and are sent, merged with the others’ edits, when the connection is back.',
    offlineNoLocal: 'Offline — changes held in this page only',
    offlineNoLocalTip:
      'The server cannot be reached and this device cannot keep a copy. Keep the page open; changes are sent when the connection is back.',
    readOnly: 'Read-only',
    readOnlyTip:
      'This plan was submitted for review, or you may no longer edit it: you see the latest content, but changes are not saved.',
    readOnlyUnsaved: 'Read-only — unsaved changes on this device',
    denied: 'No access',
    deniedTip: 'The server refused live editing of this plan: you may not edit it.',
    direct: 'Saved directly',
    directTip:
      'Live co-editing is unavailable: changes are saved to the server directly (the usual autosave); others do not see them live.',
    replaced: 'Reopening…',
  },
  presence: {
    label: 'Editing now',
    you: '{{name}} (you)',
    inField: '{{name}} · editing “{{field}}”',
    here: '{{name}} · on this page',
  },
  saveRevision: 'Save revision',
  saveRevisionTip:
    'Saves the current content as a revision (shown in the history with everyone who edited it). A revision is also saved after 10 s without edits.',
  revisionSaved: 'Saved as a new revision',
  revisionNothingNew: 'Nothing changed since the last revision',
  historyAuthors: 'Edited by {{names}}',
  notSynced: 'Some changes have not reached the server yet; try again when you are online',
  connectingTitle: 'Opening live editing…',
  connectingSlow:
    'Live editing cannot be reached right now; retrying. This device holds no copy of this plan: you can edit as soon as it connects.',
  deniedTitle: 'This plan cannot be edited',
  deniedText: 'The server refused live editing (you may not have the right to edit it).',
  readOnlyTitle: 'This plan is read-only now',
  readOnlyText:
    'It may just have been submitted for review, or your right to edit it changed. You see the latest content, but changes are not saved.',
  readOnlyUnsavedText: 'This device holds changes the server did not take; they will not be saved.',
  unavailableTitle: 'Live co-editing is unavailable; your changes are saved directly',
  unavailableText:
    'This server does not offer live co-editing. Edit as usual: changes are saved automatically; people editing at the same time see the latest changes after reloading the page.',
  replacedTitle: 'This plan was reopened from the server',
  replacedText:
    'The plan was restored or reset on the server, so the copy kept on this device no longer applies: you see the content stored on the server.',
  replacedDroppedText:
    'This device held changes that had not reached the server; they belonged to the old copy and were discarded. Please check the plan and enter them again.',
  dismiss: 'Got it',
};

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type CollabKey = Leaves<typeof zhCN>;

let registered = false;
export function registerCollabTexts(): void {
  if (registered) return;
  registered = true;
  i18n.addResourceBundle('zh-CN', 'translation', { weekCollab: zhCN }, true, false);
  i18n.addResourceBundle('en', 'translation', { weekCollab: en }, true, false);
}

/** `t` for the keys above. */
export function useCollabT() {
  registerCollabTexts();
  const { t } = useTranslation();
  return useCallback(
    (key: CollabKey, options?: Record<string, unknown>) => String(t(`weekCollab.${key}` as never, options as never)),
    [t],
  );
}
