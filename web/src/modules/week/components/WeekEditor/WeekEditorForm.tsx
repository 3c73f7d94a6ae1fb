import { Button, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BasicContainer } from '../../../../components/BasicContainer/BasicContainer';
import { LockedFieldset } from '../../collab/LockedFieldset';
import type { Draft } from '../../model/draft';
import type { ClassOption, DayPlanRecord, DayPlanRow, PlanRecord, WeekContent, WeekRecord } from '../../model/types';
import { WeekDayPlans } from '../DayPlans/WeekDayPlans';
import { DAY_GRID_CARD, DayGrid } from '../DayGrid/DayGrid';
import { PlanEditList } from '../PlanList/PlanList';
import { WeekHeaderForm } from '../WeekForm/WeekHeaderForm';
import { WeekSlotNotice } from './WeekSlotNotice';
import { WeekRichSection } from '../WeekForm/WeekSections';

interface WeekEditorFormProps {
  draft: Draft<WeekContent>;
  recordId: string | null;
  boss: boolean;
  live: boolean;
  /** A co-edited week turned read-only: nothing typed would be kept. */
  locked: boolean;
  record: WeekRecord | null;
  myClasses: ClassOption[];
  /** The fields the server refused at the last save (path → message). */
  errors: Record<string, string>;
  dates: string[];
  plans: PlanRecord[];
  dayPlans: Array<DayPlanRecord | DayPlanRow>;
  onAddPlan: () => void;
  onEditPlan: (plan: PlanRecord) => void;
  onDeletePlan: (plan: PlanRecord) => void;
}

/** The week's sections: its header, goals, the week's grid, lesson plans, day plans and reflection. */
export function WeekEditorForm(props: WeekEditorFormProps) {
  const { draft, recordId, boss, errors } = props;
  const { t } = useTranslation();
  const saveFirst = (
    <Text c="dimmed" size="sm">
      {t('week.editor.saveFirst')}
    </Text>
  );
  return (
    <LockedFieldset locked={props.locked}>
      <Stack gap="md">
        <BasicContainer title={t('week.editor.header')}>
          {!recordId && <WeekSlotNotice draft={draft} />}
          <WeekHeaderForm
            draft={draft}
            classes={props.myClasses}
            errors={errors}
            classLocked={boss || props.dayPlans.length > 0 || props.live}
            className={props.record?.className}
          />
        </BasicContainer>

        <BasicContainer title={t('week.editor.sections')}>
          <Stack gap="md">
            <WeekRichSection draft={draft} field="weeklyGoals" error={errors.weeklyGoals} minHeight={96} />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              <WeekRichSection draft={draft} field="environment" error={errors.environment} />
              <WeekRichSection draft={draft} field="homeCooperation" error={errors.homeCooperation} />
            </SimpleGrid>
          </Stack>
        </BasicContainer>

        <BasicContainer title={t('week.editor.grid')} className={DAY_GRID_CARD}>
          <DayGrid draft={draft} errors={errors} />
        </BasicContainer>

        <BasicContainer
          title={t('week.plan.title')}
          extra={
            <Button
              size="xs"
              leftSection={<IconPlus size={14} />}
              onClick={props.onAddPlan}
              disabled={!recordId || boss}
              data-testid="week-add-plan"
            >
              {t('week.plan.add')}
            </Button>
          }
        >
          {!recordId ? (
            saveFirst
          ) : (
            <PlanEditList plans={props.plans} onEdit={props.onEditPlan} onDelete={props.onDeletePlan} />
          )}
        </BasicContainer>

        <BasicContainer title={t('week.dayPlan.title')}>
          {!recordId ? (
            saveFirst
          ) : (
            <WeekDayPlans
              weekId={recordId}
              classId={String(draft.get(['classId']) ?? '')}
              dates={props.dates}
              dayPlans={props.dayPlans}
              editable={!boss}
            />
          )}
        </BasicContainer>

        <BasicContainer title={t('week.fields.reflection')}>
          <WeekRichSection
            draft={draft}
            field="reflection"
            error={errors.reflection}
            minHeight={96}
            withLabel={false}
          />
        </BasicContainer>
      </Stack>
    </LockedFieldset>
  );
}
