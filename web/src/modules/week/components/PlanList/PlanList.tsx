import { Accordion, Badge, Button, Collapse, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAward, IconHistory, IconPencil, IconStar, IconStarFilled, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../../permissions/Can';
import { useWeekLabels } from '../../hooks/useWeekLabels';
import { normalizePlanContent } from '../../model/content';
import { PLAN_RICH_FIELDS, type PlanRecord } from '../../model/types';
import { HistoryTimeline } from '../HistoryTimeline/HistoryTimeline';
import { IconAction } from '../IconAction/IconAction';
import { RichView } from '../RichView/RichView';
import { ExcellentBadge, StatusBadge } from '../StatusBadge/StatusBadge';

function PlanMeta({ plan }: { plan: PlanRecord }) {
  const labels = useWeekLabels();
  const c = normalizePlanContent(plan.content);
  return (
    <Group gap={6}>
      {c.date && (
        <Badge variant="outline" color="gray" tt="none">
          {c.date}
        </Badge>
      )}
      {c.slot && (
        <Badge variant="outline" color="gray" tt="none">
          {c.slot}
        </Badge>
      )}
      <Badge variant="light" color="grape" tt="none">
        {labels.domain(c.domain)}
      </Badge>
      <Badge variant="light" color="cyan" tt="none">
        {labels.activityType(c.activityType)}
      </Badge>
      {plan.excellent && <ExcellentBadge />}
    </Group>
  );
}

/** What the lists say when the week has no lesson plans yet. */
function NoPlans() {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" size="sm">
      {t('week.plan.empty')}
    </Text>
  );
}

/** The week's lesson plans while writing: one row each with edit and delete. */
export function PlanEditList({
  plans,
  onEdit,
  onDelete,
}: {
  plans: PlanRecord[];
  onEdit: (plan: PlanRecord) => void;
  onDelete: (plan: PlanRecord) => void;
}) {
  const { t } = useTranslation();
  if (plans.length === 0) return <NoPlans />;
  return (
    <Stack gap="xs" data-testid="plan-list">
      {plans.map((plan) => (
        <Paper key={plan.id} withBorder p="sm" radius="md" data-testid="plan-row">
          <Group justify="space-between" wrap="nowrap">
            <Stack gap={4} miw={0}>
              <Text fw={600} truncate>
                {plan.title || plan.content?.title}
              </Text>
              <PlanMeta plan={plan} />
            </Stack>
            <Group gap={4} wrap="nowrap">
              <IconAction label={t('week.plan.edit')} onClick={() => onEdit(plan)}>
                <IconPencil size={18} />
              </IconAction>
              <IconAction label={t('week.plan.delete')} color="red" onClick={() => onDelete(plan)}>
                <IconTrash size={18} />
              </IconAction>
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** One plan read-only: its fields in the printed order. */
export function PlanContentView({ plan }: { plan: PlanRecord }) {
  const { t } = useTranslation();
  const c = normalizePlanContent(plan.content);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
      {PLAN_RICH_FIELDS.map((field) => (
        <div key={field} style={field === 'process' ? { gridColumn: '1 / -1' } : undefined}>
          <Text size="sm" fw={600} mb={4}>
            {t(field === 'reflection' ? 'week.fields.planReflection' : `week.fields.${field}`)}
          </Text>
          <RichView value={c[field]} />
        </div>
      ))}
    </SimpleGrid>
  );
}

type PlanToggleKind = 'excellent' | 'collect';

/** A plan's toggle on the details page: excellent (reviewers) or favourite; busy as `<kind>:<plan id>`. */
function PlanToggle({
  kind,
  plan,
  busy,
  onToggle,
}: {
  kind: PlanToggleKind;
  plan: PlanRecord;
  busy?: string | null;
  onToggle: (kind: PlanToggleKind, plan: PlanRecord) => void;
}) {
  const { t } = useTranslation();
  const look =
    kind === 'excellent'
      ? {
          variant: plan.excellent ? 'default' : 'light',
          color: 'yellow',
          icon: <IconAward size={16} />,
          text: plan.excellent ? t('week.plan.unmarkExcellent') : t('week.plan.markExcellent'),
        }
      : {
          variant: 'light',
          color: 'orange',
          icon: plan.collected ? <IconStarFilled size={16} /> : <IconStar size={16} />,
          text: plan.collected ? t('week.plan.uncollect') : t('week.plan.collect'),
        };
  return (
    <Button
      size="xs"
      variant={look.variant}
      color={look.color}
      leftSection={look.icon}
      loading={busy === `${kind}:${plan.id}`}
      onClick={() => onToggle(kind, plan)}
      data-testid={`plan-${kind}`}
    >
      {look.text}
    </Button>
  );
}

interface PlanViewListProps {
  plans: PlanRecord[];
  /** The caller may mark approved plans excellent (reviewers). */
  canExcellent: boolean;
  onToggle: (kind: PlanToggleKind, plan: PlanRecord) => void;
  busy?: string | null;
}

/** The week's lesson plans on the details page, each opening to its content, with excellent / favourite actions. */
export function PlanViewList({ plans, canExcellent, onToggle, busy }: PlanViewListProps) {
  if (plans.length === 0) return <NoPlans />;
  return (
    <Accordion variant="separated" multiple defaultValue={plans.length <= 2 ? plans.map((p) => p.id) : []}>
      {plans.map((plan) => (
        <Accordion.Item key={plan.id} value={plan.id} data-testid="plan-view">
          <Accordion.Control>
            <Group justify="space-between" wrap="nowrap" pr="sm">
              <Stack gap={4} miw={0}>
                <Group gap="xs">
                  <Text fw={600}>{plan.title || plan.content?.title}</Text>
                  <StatusBadge status={plan.status} size="sm" />
                </Group>
                <PlanMeta plan={plan} />
              </Stack>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Group gap="xs" mb="md">
              {canExcellent && plan.status === 'success' && (
                <Can code="week_excellent">
                  <PlanToggle kind="excellent" plan={plan} busy={busy} onToggle={onToggle} />
                </Can>
              )}
              {plan.excellent && <PlanToggle kind="collect" plan={plan} busy={busy} onToggle={onToggle} />}
            </Group>
            <PlanContentView plan={plan} />
            <PlanHistory plan={plan} />
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

/** A plan's own timeline, loaded when asked for. */
function PlanHistory({ plan }: { plan: PlanRecord }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <Stack gap="xs" mt="md">
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconHistory size={14} />}
        onClick={() => setOpen((v) => !v)}
        w="fit-content"
        data-testid="plan-history-toggle"
      >
        {open ? t('week.history.hideChanges') : t('week.details.history')}
      </Button>
      <Collapse expanded={open}>{open && <HistoryTimeline id={plan.id} refreshKey={plan.version} />}</Collapse>
    </Stack>
  );
}
