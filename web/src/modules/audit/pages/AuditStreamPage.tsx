import {
  Alert,
  Anchor,
  Button,
  Center,
  Code,
  Grid,
  Group,
  Loader,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconChevronLeft,
  IconChevronRight,
  IconChevronsLeft,
  IconChevronsRight,
  IconExternalLink,
  IconFileTypeDocx,
  IconJson,
  IconLock,
} from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { saveFile } from '../../../lib/http';
import { auditApi } from '../api';
import { ChangesTable } from '../components/ChangesTable';
import { StateView } from '../components/StateView';
import { StreamTimeline } from '../components/Timeline';
import { step } from '../model/replay';
import { AUDIT_PATHS, recordHref } from '../paths';

const MOMENT = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

const STEPS = {
  first: { icon: <IconChevronsLeft size={14} />, side: 'left' },
  prev: { icon: <IconChevronLeft size={14} />, side: 'left' },
  next: { icon: <IconChevronRight size={14} />, side: 'right' },
  last: { icon: <IconChevronsRight size={14} />, side: 'right' },
} as const;

/** One of the replay's steps (first, back, forward, latest) to version `to`. */
function StepButton(props: { kind: keyof typeof STEPS; to: number; disabled: boolean; onStep: (v: number) => void }) {
  const { t } = useTranslation();
  const { icon, side } = STEPS[props.kind];
  return (
    <Button
      variant="default"
      size="xs"
      onClick={() => props.onStep(props.to)}
      disabled={props.disabled}
      leftSection={side === 'left' ? icon : undefined}
      rightSection={side === 'right' ? icon : undefined}
      data-testid={`replay-${props.kind}`}
    >
      {t(`audit.stream.${props.kind}`)}
    </Button>
  );
}

/**
 * `/system/audit/stream?id=`: one stream's story, read only. Its state as of any version
 * (the replay steps back and forth) or any moment, in the record's own layout; the timeline
 * of every event; two versions side by side; the evidence (.docx + JSON and its sha256).
 */
export function AuditStreamPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [version, setVersion] = useState<number | null>(null);
  const [moment, setMoment] = useState('');
  const [momentError, setMomentError] = useState<string | null>(null);
  const [compare, setCompare] = useState<[number | null, number | null]>([null, null]);
  const [hash, setHash] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const history = useQuery({
    queryKey: ['audit', id, 'events'],
    queryFn: () => auditApi.events(id),
    enabled: Boolean(id),
    retry: false,
  });
  const facts = useQuery({
    queryKey: ['audit', id, 'facts'],
    queryFn: async () => (await auditApi.search({ streamId: id, size: 10 })).records[0] ?? null,
    enabled: Boolean(id),
    retry: false,
  });
  const last = history.data?.version ?? 0;
  const at = version ?? last;
  const state = useQuery({
    queryKey: ['audit', id, 'state', at],
    queryFn: () => auditApi.state(id, { version: at }),
    enabled: Boolean(history.data),
    placeholderData: keepPreviousData,
  });
  const [from, to] = [compare[0] ?? Math.max(0, last - 1), compare[1] ?? last];
  const diff = useQuery({
    queryKey: ['audit', id, 'compare', from, to],
    queryFn: async () => {
      const [a, b] = [Math.min(from, to), Math.max(from, to)];
      const [changes, before, after] = await Promise.all([
        auditApi.diff(id, a, b),
        auditApi.state(id, { version: a }),
        auditApi.state(id, { version: b }),
      ]);
      return { a, b, changes: changes.changes, before: before.state, after: after.state };
    },
    enabled: Boolean(history.data),
  });

  if (!id || (history.isError && !history.data))
    return (
      <Alert color="red" data-testid="audit-stream-not-found">
        {t('audit.stream.notFound')}
      </Alert>
    );
  if (!history.data)
    return (
      <Center mih={320}>
        <Loader />
      </Center>
    );
  const events = history.data.events;
  const streamType = history.data.streamType;
  const record = facts.data ?? undefined;
  const recordLink = recordHref(streamType, record?.recordId ?? null);
  const versions = Array.from({ length: last + 1 }, (_, v) => ({
    value: String(v),
    label:
      v === 0
        ? 'v0'
        : `v${v} · ${t(`audit.events.${events[v - 1]?.type}` as never, { defaultValue: events[v - 1]?.type })}`,
  }));

  const goMoment = async () => {
    if (!MOMENT.test(moment.trim())) {
      setMomentError(t('audit.stream.momentBad'));
      return;
    }
    setMomentError(null);
    try {
      const s = await auditApi.state(id, { at: moment.trim() });
      setVersion(s.version);
    } catch {
      /* the message was shown */
    }
  };
  const exportEvidence = async (format: 'json' | 'docx') => {
    setBusy(format);
    try {
      const file = await auditApi.evidence(id, format, last);
      if (format === 'json') {
        const bytes = await file.blob.arrayBuffer();
        const digest = await crypto.subtle.digest('SHA-256', bytes);
        setHash([...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join(''));
      }
      saveFile(file);
    } catch {
      /* shown */
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="md" data-testid="audit-stream" data-stream={id}>
      <BasicContainer>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Group gap="sm" miw={0}>
            <Button
              component={Link}
              to={AUDIT_PATHS.search}
              variant="subtle"
              size="compact-sm"
              leftSection={<IconArrowLeft size={14} />}
            >
              {t('audit.stream.back')}
            </Button>
            <Title order={2} size="h4" data-testid="audit-stream-title">
              {record?.title || id}
            </Title>
            <Text size="sm" c="dimmed">
              {[
                record?.className,
                record?.authorName,
                t(`audit.types.${streamType}` as never, { defaultValue: streamType }),
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </Group>
          <Group gap="xs">
            {recordLink && (
              <Button
                component={Link}
                to={recordLink}
                variant="default"
                leftSection={<IconExternalLink size={16} />}
                data-testid="audit-open-record"
              >
                {t('audit.stream.openRecord')}
              </Button>
            )}
            {(['docx', 'json'] as const).map((format) => (
              <Button
                key={format}
                variant="default"
                leftSection={format === 'docx' ? <IconFileTypeDocx size={16} /> : <IconJson size={16} />}
                loading={busy === format}
                onClick={() => void exportEvidence(format)}
                data-testid={`audit-evidence-${format}`}
              >
                {t(format === 'docx' ? 'audit.stream.evidenceDocx' : 'audit.stream.evidenceJson')}
              </Button>
            ))}
          </Group>
        </Group>
        <Group gap={6} mt="xs">
          <IconLock size={14} />
          <Text size="xs" c="dimmed">
            {t('audit.stream.readOnly')}
          </Text>
        </Group>
        {hash && (
          <Text size="sm" mt="xs">
            {t('audit.stream.evidenceHash')} <Code data-testid="audit-evidence-hash">{hash}</Code>
          </Text>
        )}
      </BasicContainer>

      <BasicContainer>
        <Group gap="xs" wrap="wrap" data-testid="audit-replay">
          <StepButton kind="first" to={0} disabled={at === 0} onStep={setVersion} />
          <StepButton kind="prev" to={step(at, -1, last)} disabled={at === 0} onStep={setVersion} />
          <NumberInput
            size="xs"
            w={80}
            min={0}
            max={last}
            value={at}
            onChange={(v) => typeof v === 'number' && setVersion(step(v, 0, last))}
            aria-label={t('audit.search.version')}
            data-testid="replay-version"
          />
          <StepButton kind="next" to={step(at, 1, last)} disabled={at === last} onStep={setVersion} />
          <StepButton kind="last" to={last} disabled={at === last} onStep={setVersion} />
          <Text size="sm" fw={600} ml="sm" data-testid="replay-label">
            {t('audit.stream.asOf', { version: at, last })}
            {at > 0 &&
              ` · ${t(`audit.events.${events[at - 1]?.type}` as never, { defaultValue: events[at - 1]?.type })} · ${events[at - 1]?.time ?? ''}`}
          </Text>
          <Group gap={4} ml="auto">
            <TextInput
              size="xs"
              w={190}
              placeholder={t('audit.stream.momentPlaceholder')}
              aria-label={t('audit.stream.moment')}
              value={moment}
              error={momentError}
              onChange={(e) => setMoment(e.currentTarget.value)}
              data-testid="replay-moment"
            />
            <Button size="xs" variant="light" onClick={() => void goMoment()} data-testid="replay-moment-go">
              {t('audit.stream.momentGo')}
            </Button>
          </Group>
        </Group>
      </BasicContainer>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          {state.data ? <StateView streamType={streamType} state={state.data.state} facts={record} /> : <Loader />}
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 4 }}>
          <BasicContainer title={t('audit.stream.timeline')}>
            <StreamTimeline streamId={id} kind={streamType} events={events} current={at} onPick={setVersion} />
          </BasicContainer>
        </Grid.Col>
      </Grid>

      <BasicContainer title={t('audit.stream.compare')} data-testid="audit-compare">
        <Group gap="sm" mb="sm">
          <Select
            size="xs"
            w={260}
            label={t('audit.stream.from')}
            data={versions}
            value={String(from)}
            onChange={(v) => v !== null && setCompare([Number(v), compare[1]])}
            allowDeselect={false}
            data-testid="compare-from"
          />
          <Select
            size="xs"
            w={260}
            label={t('audit.stream.to')}
            data={versions}
            value={String(to)}
            onChange={(v) => v !== null && setCompare([compare[0], Number(v)])}
            allowDeselect={false}
            data-testid="compare-to"
          />
        </Group>
        {diff.data ? (
          <ChangesTable
            kind={streamType}
            changes={diff.data.changes}
            before={diff.data.before}
            after={diff.data.after}
            labels={[`v${diff.data.a}`, `v${diff.data.b}`]}
          />
        ) : (
          <Loader size="sm" />
        )}
        {recordLink && (
          <Anchor component={Link} to={recordLink} size="sm" mt="sm" display="inline-block">
            {t('audit.stream.openRecord')}
          </Anchor>
        )}
      </BasicContainer>
    </Stack>
  );
}
