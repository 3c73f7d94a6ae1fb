import { Checkbox, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import type Modeler from 'bpmn-js/lib/Modeler';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BusinessObject, extAttr, extName, isDefaultFlow, mayBeDefault, panelKind, timerOf } from './elements';

/** A diagram element as bpmn-js hands it over. */
export interface ModelerElement {
  id: string;
  type: string;
  businessObject: unknown;
  source?: ModelerElement;
}

interface Modeling {
  updateProperties(element: ModelerElement, props: Record<string, unknown>): void;
  updateModdleProperties(element: ModelerElement, target: unknown, props: Record<string, unknown>): void;
}
interface Factory {
  create(type: string, props: Record<string, unknown>): unknown;
}

/** A text field that writes through on every change (its value starts from the element). */
function Prop({
  label,
  hint,
  initial,
  onCommit,
  testId,
}: {
  label: string;
  hint?: string;
  initial: string;
  onCommit: (value: string) => void;
  testId: string;
}) {
  const [value, setValue] = useState(initial);
  return (
    <TextInput
      size="xs"
      label={label}
      description={hint}
      value={value}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setValue(next);
        onCommit(next);
      }}
      data-testid={testId}
    />
  );
}

/**
 * The properties of the selected element our engine reads: every element's name; a user
 * task's assignee, candidate users and groups and due date; a service task's handler; a
 * sequence flow's FEEL condition and whether it is its gateway's default; a timer's duration or
 * date (and a boundary timer's interrupting). Every change is one command (undo works).
 */
export function PropertiesPanel({
  modeler,
  element,
  version,
}: {
  modeler: Modeler;
  element: ModelerElement | null;
  version: number;
}) {
  const { t } = useTranslation();
  if (!element) {
    return (
      <Stack p="sm" gap="xs" data-testid="bpmn-properties">
        <Title order={6}>{t('flow.modeler.properties')}</Title>
        <Text size="xs" c="dimmed">
          {t('flow.modeler.nothingSelected')}
        </Text>
      </Stack>
    );
  }
  const modeling = modeler.get('modeling') as Modeling;
  const factory = modeler.get('bpmnFactory') as Factory;
  const bo = element.businessObject as BusinessObject;
  const kind = panelKind(bo);
  const set = (props: Record<string, unknown>) => modeling.updateProperties(element, props);
  const setExt = (local: string, value: string) =>
    set({ [extName(bo, local)]: value.trim() === '' ? undefined : value });
  const expression = (body: string) =>
    body.trim() === '' ? undefined : factory.create('bpmn:FormalExpression', { body: body.trim() });
  const timer = timerOf(bo);

  return (
    <Stack
      p="sm"
      gap="xs"
      key={element.id}
      data-testid="bpmn-properties"
      data-element={element.id}
      data-version={version}
    >
      <Title order={6}>{t('flow.modeler.properties')}</Title>
      <Text size="xs" c="dimmed">
        {t('flow.modeler.type')}: {bo.$type.replace('bpmn:', '')} · {t('flow.modeler.elementId')}: {bo.id}
      </Text>
      <Prop
        label={t('flow.modeler.elementName')}
        initial={bo.name ?? ''}
        onCommit={(v) => set({ name: v })}
        testId="prop-name"
      />
      {kind === 'userTask' && (
        <>
          <Prop
            label={t('flow.modeler.assignee')}
            hint={t('flow.modeler.assigneeHint')}
            initial={extAttr(bo, 'assignee')}
            onCommit={(v) => setExt('assignee', v)}
            testId="prop-assignee"
          />
          <Prop
            label={t('flow.modeler.candidateUsers')}
            hint={t('flow.modeler.candidateUsersHint')}
            initial={extAttr(bo, 'candidateUsers')}
            onCommit={(v) => setExt('candidateUsers', v)}
            testId="prop-candidateUsers"
          />
          <Prop
            label={t('flow.modeler.candidateGroups')}
            hint={t('flow.modeler.candidateGroupsHint')}
            initial={extAttr(bo, 'candidateGroups')}
            onCommit={(v) => setExt('candidateGroups', v)}
            testId="prop-candidateGroups"
          />
          <Prop
            label={t('flow.modeler.dueDate')}
            hint={t('flow.modeler.dueDateHint')}
            initial={extAttr(bo, 'dueDate')}
            onCommit={(v) => setExt('dueDate', v)}
            testId="prop-dueDate"
          />
        </>
      )}
      {kind === 'serviceTask' && (
        <Prop
          label={t('flow.modeler.handler')}
          hint={t('flow.modeler.handlerHint')}
          initial={extAttr(bo, 'handler')}
          onCommit={(v) => setExt('handler', v)}
          testId="prop-handler"
        />
      )}
      {kind === 'flow' && (
        <>
          <Prop
            label={t('flow.modeler.condition')}
            hint={t('flow.modeler.conditionHint')}
            initial={bo.conditionExpression?.body ?? ''}
            onCommit={(v) => set({ conditionExpression: expression(v) })}
            testId="prop-condition"
          />
          {mayBeDefault(bo) && element.source && (
            <Checkbox
              size="xs"
              label={t('flow.modeler.defaultFlow')}
              defaultChecked={isDefaultFlow(bo)}
              onChange={(e) =>
                element.source &&
                modeling.updateProperties(element.source, { default: e.currentTarget.checked ? bo : undefined })
              }
              data-testid="prop-default"
            />
          )}
        </>
      )}
      {(kind === 'timer' || kind === 'boundaryTimer') && (
        <TimerFields element={element} modeling={modeling} factory={factory} initial={timer} />
      )}
      {kind === 'boundaryTimer' && (
        <Checkbox
          size="xs"
          label={t('flow.modeler.cancelActivity')}
          defaultChecked={bo.cancelActivity !== false}
          onChange={(e) => set({ cancelActivity: e.currentTarget.checked })}
          data-testid="prop-cancelActivity"
        />
      )}
    </Stack>
  );
}

function TimerFields({
  element,
  modeling,
  factory,
  initial,
}: {
  element: ModelerElement;
  modeling: Modeling;
  factory: Factory;
  initial: { kind: 'duration' | 'date'; value: string };
}) {
  const { t } = useTranslation();
  const [kind, setKind] = useState(initial.kind);
  const [value, setValue] = useState(initial.value);
  const bo = element.businessObject as BusinessObject;
  const write = (k: 'duration' | 'date', v: string) => {
    const def = bo.eventDefinitions?.find((d) => d.$type === 'bpmn:TimerEventDefinition');
    if (!def) return;
    const body = v.trim() === '' ? undefined : factory.create('bpmn:FormalExpression', { body: v.trim() });
    modeling.updateModdleProperties(element, def, {
      timeDuration: k === 'duration' ? body : undefined,
      timeDate: k === 'date' ? body : undefined,
    });
  };
  return (
    <Stack gap={4}>
      <Text size="xs" fw={500}>
        {t('flow.modeler.timerType')}
      </Text>
      <SegmentedControl
        size="xs"
        value={kind}
        onChange={(k) => {
          const next = k as 'duration' | 'date';
          setKind(next);
          write(next, value);
        }}
        data={[
          { value: 'duration', label: t('flow.modeler.timerDuration') },
          { value: 'date', label: t('flow.modeler.timerDate') },
        ]}
      />
      <TextInput
        size="xs"
        label={t('flow.modeler.timerValue')}
        description={t('flow.modeler.timerHint')}
        value={value}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          write(kind, e.currentTarget.value);
        }}
        data-testid="prop-timer"
      />
    </Stack>
  );
}
