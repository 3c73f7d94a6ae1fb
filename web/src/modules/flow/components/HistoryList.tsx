import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HistoryStep } from '../api';

/** An instance's steps, oldest first: the step, who, when, how long, and the comment. */
export function HistoryList({ steps }: { steps: readonly HistoryStep[] }) {
  const { t } = useTranslation();
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
            <Table.Tr key={`${step.historyActivityId ?? ''}-${step.createTime ?? ''}-${step.assignee ?? ''}`} data-testid="flow-history-row">
              <Table.Td>{step.historyActivityName ?? step.historyActivityId}</Table.Td>
              <Table.Td>{step.assigneeName ?? step.assignee ?? ''}</Table.Td>
              <Table.Td>{step.createTime ?? ''}</Table.Td>
              <Table.Td>
                {step.endTime ?? (
                  <Badge color="orange" variant="light">
                    {t('flow.history.ongoing')}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{step.historyActivityDurationTime ?? ''}</Table.Td>
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
