import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../../../lib/http';
import { usePermission } from '../../../permissions/Can';
import {
  CHART_TYPES,
  type ChartType,
  PARAM_TYPES,
  type ParamType,
  type PreviewAnswer,
  REPORT_VIEWS,
  type ReportChart as Chart,
  type ReportParam,
  reportApi,
  type Values,
} from '../api';
import { ReportChart } from '../components/ReportChart';
import { REPORT_PATHS } from '../paths';
import { ResultTable } from '../components/ResultTable';

interface DesignColumn {
  key: string;
  label: string;
  include: boolean;
}

/** 报表设计 (`/report/design?id=`): a report's query, parameters, columns and chart with a live preview. */
export function ReportDesignPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [search] = useSearchParams();
  const id = search.get('id');
  const mayAdd = usePermission({ code: 'report_add' });
  const mayEdit = usePermission({ code: 'report_edit' });
  const allowed = id ? mayEdit : mayAdd;
  const [name, setName] = useState('');
  const [params, setParams] = useState<ReportParam[]>([]);
  const [query, setQuery] = useState('');
  const [columns, setColumns] = useState<DesignColumn[]>([]);
  const [chart, setChart] = useState<Chart>({ type: 'none', x: '', y: [] });
  const [values, setValues] = useState<Values>({});
  const [preview, setPreview] = useState<PreviewAnswer | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!id || !allowed) return;
    void reportApi.detail(id).then(({ data }) => {
      setName(data.name);
      setParams(data.params);
      setQuery(data.query);
      setColumns(data.columns.map((c) => ({ ...c, include: true })));
      setChart(data.chart);
    });
  }, [id, allowed]);

  // The live preview: the query run (as saved reports run) a moment after the last change.
  useEffect(() => {
    if (!allowed || !query.trim()) return;
    const timer = setTimeout(() => {
      setBusy(true);
      reportApi
        .preview({ query, params, values })
        .then(({ data }) => {
          setPreview(data);
          setProblem('');
          setColumns((old) => {
            const kept = data.columns.map(
              (key) =>
                old.find((c) => c.key === key) ?? {
                  key,
                  // A new column's title: the field's name in the user's language where Sprout knows it.
                  label: t(`report.fields.${key}` as never, { defaultValue: key }),
                  include: true,
                },
            );
            return kept;
          });
        })
        .catch((e: unknown) => setProblem(e instanceof ApiError ? e.message : String(e)))
        .finally(() => setBusy(false));
    }, 600);
    return () => clearTimeout(timer);
  }, [allowed, query, params, values, t]);

  const shown = useMemo(() => columns.filter((c) => c.include).map(({ key, label }) => ({ key, label })), [columns]);
  const fieldOptions = shown.map((c) => ({ value: c.key, label: c.label }));

  if (!allowed)
    return (
      <Alert color="red" data-testid="report-design-denied">
        {t('report.design.noAccess')}
      </Alert>
    );

  const setParam = (i: number, patch: Partial<ReportParam>) =>
    setParams((ps) => ps.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  const save = async () => {
    try {
      await reportApi.submit({ ...(id ? { id } : {}), name, params, query, columns: shown, chart });
      notifications.show({ message: t('report.design.saved'), color: 'teal' });
      await client.invalidateQueries({ queryKey: ['reports'] });
      navigate(REPORT_PATHS.list);
    } catch (e) {
      if (e instanceof ApiError) setProblem(e.message);
    }
  };

  return (
    <Stack gap="md" data-testid="report-design-page">
      <Title order={4}>{t('report.design.title')}</Title>
      <TextInput
        label={t('report.design.name')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        required
        data-testid="report-name"
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('report.design.params')}
        </Text>
        {params.map((p, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a parameter's place is its $n, which it keeps while renamed
          <Group key={i} gap="xs" data-testid={`report-param-${i}`}>
            <Code>${i + 1}</Code>
            <TextInput
              placeholder={t('report.design.paramName')}
              value={p.name}
              onChange={(e) => setParam(i, { name: e.currentTarget.value })}
              data-testid="report-param-name"
              w={140}
            />
            <TextInput
              placeholder={t('report.design.paramLabel')}
              value={p.label}
              onChange={(e) => setParam(i, { label: e.currentTarget.value })}
              data-testid="report-param-label"
              w={160}
            />
            <Select
              data={PARAM_TYPES.map((v) => ({ value: v, label: t(`report.types.${v}`) }))}
              value={p.type}
              onChange={(v) => setParam(i, { type: (v ?? 'text') as ParamType })}
              allowDeselect={false}
              data-testid="report-param-type"
              w={120}
            />
            <TextInput
              placeholder={t('report.design.values')}
              type={p.type === 'date' ? 'date' : 'text'}
              value={values[p.name] ?? ''}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setValues((old) => ({ ...old, [p.name]: v }));
              }}
              data-testid="report-param-value"
              w={170}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('report.list.remove')}
              onClick={() => setParams((ps) => ps.filter((_, j) => j !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() =>
              setParams((ps) => [...ps, { name: `p${ps.length + 1}`, label: '', type: 'date', required: false }])
            }
            data-testid="report-add-param"
          >
            {t('report.design.addParam')}
          </Button>
        </Group>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Textarea
          label={t('report.design.query')}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          autosize
          minRows={8}
          styles={{ input: { fontFamily: 'monospace' } }}
          data-testid="report-query"
        />
        <Paper withBorder p="xs">
          <Text size="sm" fw={500} mb={4}>
            {t('report.design.views')}
          </Text>
          {Object.entries(REPORT_VIEWS).map(([view, cols]) => (
            <Text key={view} size="xs" mb={4}>
              <Code>{view}</Code> {t(`report.viewAbout.${view}` as never)}
              <Text span size="xs" c="dimmed" display="block">
                {cols}
              </Text>
            </Text>
          ))}
        </Paper>
      </SimpleGrid>
      {problem ? (
        <Alert color="red" data-testid="report-problem">
          {problem}
        </Alert>
      ) : null}
      {columns.length ? (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('report.design.columns')}
          </Text>
          <Table withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('report.design.include')}</Table.Th>
                <Table.Th>{t('report.design.column')}</Table.Th>
                <Table.Th>{t('report.design.label')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {columns.map((c, i) => (
                <Table.Tr key={c.key}>
                  <Table.Td>
                    <Checkbox
                      checked={c.include}
                      onChange={(e) => {
                        const include = e.currentTarget.checked;
                        setColumns((cs) => cs.map((x, j) => (j === i ? { ...x, include } : x)));
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Code>{c.key}</Code>
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      value={c.label}
                      onChange={(e) => {
                        const label = e.currentTarget.value;
                        setColumns((cs) => cs.map((x, j) => (j === i ? { ...x, label } : x)));
                      }}
                      data-testid={`report-column-label-${c.key}`}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ) : null}
      <Group align="flex-end">
        <Select
          label={t('report.design.chart')}
          data={CHART_TYPES.map((v) => ({ value: v, label: t(`report.charts.${v}`) }))}
          value={chart.type}
          onChange={(v) => setChart((c) => ({ ...c, type: (v ?? 'none') as ChartType }))}
          allowDeselect={false}
          data-testid="report-chart-type"
          w={140}
        />
        <Select
          label={t('report.design.chartX')}
          data={fieldOptions}
          value={chart.x || null}
          onChange={(v) => setChart((c) => ({ ...c, x: v ?? '' }))}
          data-testid="report-chart-x"
          w={200}
        />
        <MultiSelect
          label={t('report.design.chartY')}
          data={fieldOptions}
          value={chart.y}
          onChange={(y) => setChart((c) => ({ ...c, y }))}
          data-testid="report-chart-y"
          miw={240}
        />
      </Group>
      <Paper withBorder p="sm">
        <Text size="sm" c="dimmed" mb="xs" data-testid="report-preview-count">
          {busy ? t('report.design.previewing') : t('report.design.previewRows', { count: preview?.rows.length ?? 0 })}
        </Text>
        {preview ? (
          <Stack>
            <ReportChart chart={chart} columns={shown} rows={preview.rows} />
            <ResultTable columns={shown} rows={preview.rows} />
          </Stack>
        ) : null}
      </Paper>
      <Group>
        <Button onClick={save} data-testid="report-save">
          {t('report.design.save')}
        </Button>
      </Group>
    </Stack>
  );
}
