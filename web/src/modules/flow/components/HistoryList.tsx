import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HistoryStep } from '../api';
import { durationParts } from '../leave';

/** A step's name; an unnamed start or end event (the server then sends its id, StartEvent_1) by its kind. */
export function stepName(step: HistoryStep, t: (key: string) => string): string {
  const named = step.historyActivityName && step.historyActivityName !== step.historyActivityId;
  if (named) return step.historyActivityName as string;
  if (step.historyActivityType === 'startEvent') return t('flow.history.startEvent');
  if (step.historyActivityType === 'endEvent') return t('flow.history.endEvent');
  return step.historyActivityName || step.historyActivityId || '';
}

/** An instance's steps, oldest first: the step, who, when, how long, and the comment. */
export function HistoryList({ steps }: { steps: readonly HistoryStep[] }) {
  const { t } = useTranslation();
  const name = (step: HistoryStep) => stepName(step, (key) => t(key as never));
  /** How long it took, in the interface language (the server's text when it sent no milliseconds). */
  const took = (step: HistoryStep) => {
    if (step.durationMs == null || !step.endTime) return step.endTime ? (step.historyActivityDurationTime ?? '') : '';
    const { d, h, m, s } = durationParts(step.durationMs);
    if (d) return t('flow.history.dh', { d, h });
    if (h) return t('flow.history.hm', { h, m });
    if (m) return t('flow.history.ms', { m, s });
    return t('flow.history.s', { s });
  };
  if (steps.length === 0) {
    return (
      <Text c="dimmed" size="sm" data-testid="flow-history-empty">
        {t('flow.history.empty')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder data-testid="flow-history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('flow.history.step')}</Table.Th>
            <Table.Th>{t('flow.history.who')}</Table.Th>
            <Table.Th>{t('flow.history.createTime')}</Table.Th>
            <Table.Th>{t('flow.history.endTime')}</Table.Th>
            <Table.Th>{t('flow.history.duration')}</Table.Th>
            <Table.Th>{t('flow.history.comment')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {steps.map((step) => (
            <Table.Tr
              key={`${step.historyActivityId ?? ''}-${step.createTime ?? ''}-${step.assignee ?? ''}`}
              data-testid="flow-history-row"
            >
              <Table.Td>{name(step)}</Table.Td>
              <Table.Td>{step.assigneeName ?? step.assignee ?? ''}</Table.Td>
              <Table.Td>{step.createTime ?? ''}</Table.Td>
              <Table.Td>
                {step.endTime ?? (
                  <Badge color="orange" variant="light">
                    {t('flow.history.ongoing')}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{took(step)}</Table.Td>
              <Table.Td>
                {step.flag === 'refuse' && (
                  <Badge color="red" variant="light" mr={4}>
                    {t('flow.complete.refused')}
                  </Badge>
                )}
                {step.flag === 'ok' && (
                  <Badge color="green" variant="light" mr={4}>
                    {t('flow.complete.approved')}
                  </Badge>
                )}
                {step.comment ?? ''}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
