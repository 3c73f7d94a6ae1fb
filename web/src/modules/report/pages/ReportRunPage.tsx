import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { type RunAnswer, reportApi, type Values } from '../api';
import { ReportChart } from '../components/ReportChart';
import { ResultTable } from '../components/ResultTable';

/** 运行报表 (`/report/view?id=`): a report's parameters, its run as a chart and a table, and its Excel export. */
export function ReportRunPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = search.get('id') ?? '';
  const report = useQuery({ queryKey: ['report', id], queryFn: () => reportApi.detail(id), enabled: Boolean(id) });
  const [values, setValues] = useState<Values>({});
  const [result, setResult] = useState<RunAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const r = report.data?.data;
  if (!r) return null;
  const run = async () => {
    setBusy(true);
    try {
      setResult((await reportApi.run(id, values)).data);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="md" data-testid="report-run-page">
      <Title order={4}>{r.name}</Title>
      <Group align="flex-end">
        {r.params.map((p) => (
          <TextInput
            key={p.name}
            label={p.label}
            required={p.required}
            type={p.type === 'date' ? 'date' : 'text'}
            value={values[p.name] ?? ''}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setValues((old) => ({ ...old, [p.name]: v }));
            }}
            data-testid={`report-value-${p.name}`}
          />
        ))}
        <Button leftSection={<IconPlayerPlay size={16} />} onClick={run} loading={busy} data-testid="report-run-button">
          {t('report.run.run')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconDownload size={16} />}
          onClick={() => reportApi.export(id, values, r.name)}
          data-testid="report-export"
        >
          {t('report.run.export')}
        </Button>
      </Group>
      {result ? (
        <Paper withBorder p="sm">
          <Stack>
            <Text size="sm" c="dimmed" data-testid="report-count">
              {result.truncated
                ? t('report.run.truncated', { count: result.rows.length })
                : t('report.run.rows', { count: result.rows.length })}
            </Text>
            <ReportChart chart={result.chart} columns={result.columns} rows={result.rows} />
            <ResultTable columns={result.columns} rows={result.rows} />
          </Stack>
        </Paper>
      ) : (
        <Alert variant="light">{t('report.run.notRun')}</Alert>
      )}
    </Stack>
  );
}
