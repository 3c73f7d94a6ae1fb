/**
 * The events of a process-instance stream (stream type `process`). Each carries its own time
 * (`at`, ISO) so a replay gives the same state and history as the live run.
 */

export interface ProcessStartedData {
  instanceId: string;
  definitionId: string;
  definitionKey: string;
  definitionName: string;
  definitionVersion: number;
  category: string;
  startUser: string;
  startUserName: string;
  businessTable: string;
  businessId: string;
  variables: Record<string, unknown>;
  at: string;
}

export interface TaskCreatedData {
  taskId: string;
  tokenId: string;
  elementId: string;
  name: string;
  assignee: string | null;
  candidateUsers: string[];
  candidateGroups: string[];
  dueDate: string | null;
  at: string;
}

export type ProcessEvent =
  | { type: 'ProcessStarted'; data: ProcessStartedData }
  | { type: 'TokenMoved'; data: { tokenId: string; from: string | null; flow: string | null; to: string; at: string } }
  | { type: 'TokenConsumed'; data: { tokenId: string; at: string; reason: 'end' | 'join' | 'cancelled' } }
  | { type: 'TaskCreated'; data: TaskCreatedData }
  | { type: 'TaskClaimed'; data: { taskId: string; userId: string; userName: string; at: string } }
  | {
      type: 'TaskDelegated';
      data: { taskId: string; from: string; fromName: string; to: string; toName: string; at: string };
    }
  | {
      type: 'TaskCompleted';
      data: { taskId: string; userId: string; userName: string; flag: string; comment: string; at: string };
    }
  | { type: 'TaskCancelled'; data: { taskId: string; reason: string; at: string } }
  | { type: 'VariablesSet'; data: { variables: Record<string, unknown>; at: string } }
  | {
      type: 'TimerScheduled';
      data: {
        timerId: string;
        tokenId: string;
        elementId: string;
        dueAt: string;
        /** A boundary timer: the activity it watches and whether firing cancels it. */
        attachedTo: string | null;
        interrupting: boolean;
        at: string;
      };
    }
  | { type: 'TimerFired'; data: { timerId: string; at: string } }
  | { type: 'TimerCancelled'; data: { timerId: string; at: string } }
  | {
      type: 'ServiceScheduled';
      data: { jobId: string; tokenId: string; elementId: string; handler: string; retries: number; at: string };
    }
  | { type: 'ServiceCompleted'; data: { jobId: string; at: string } }
  | { type: 'ServiceFailed'; data: { jobId: string; error: string; at: string } }
  | { type: 'ProcessSuspended'; data: { reason: string; at: string } }
  | { type: 'ProcessResumed'; data: { at: string } }
  | { type: 'ProcessEnded'; data: { at: string } }
  | { type: 'ProcessTerminated'; data: { reason: string; userId: string; userName: string; at: string } };

export type ProcessEventType = ProcessEvent['type'];

export const PROCESS_EVENT_TYPES: readonly ProcessEventType[] = [
  'ProcessStarted',
  'TokenMoved',
  'TokenConsumed',
  'TaskCreated',
  'TaskClaimed',
  'TaskDelegated',
  'TaskCompleted',
  'TaskCancelled',
  'VariablesSet',
  'TimerScheduled',
  'TimerFired',
  'TimerCancelled',
  'ServiceScheduled',
  'ServiceCompleted',
  'ServiceFailed',
  'ProcessSuspended',
  'ProcessResumed',
  'ProcessEnded',
  'ProcessTerminated',
];

export const PROCESS_STREAM = 'process';
