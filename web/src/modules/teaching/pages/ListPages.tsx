import { useTranslation } from 'react-i18next';
import { RecordFamilyList } from '../../../kit/records';
import type { RecordFamily } from '../../../kit/records/define';
import { classSummaryFamily, classWorkFamily } from '../families/classes';
import { halfFlowFamily } from '../families/halfFlow';
import { teacherPlanFamily } from '../families/plan';
import { projectFamily, researchFamily } from '../families/research';

const listOf = (family: RecordFamily, menu: string) =>
  function FamilyListPage() {
    const { t } = useTranslation();
    return <RecordFamilyList family={family} title={t(`menu.${menu}` as never)} />;
  };

export const TeacherPlanListPage = listOf(teacherPlanFamily, 'teacher_plan');
/** Also the spec's route `/teacher_research/listResearch`. */
export const ResearchListPage = listOf(researchFamily, 'research');
export const ProjectListPage = listOf(projectFamily, 'project');
export const ClassWorkListPage = listOf(classWorkFamily, 'class_work');
export const ClassSummaryListPage = listOf(classSummaryFamily, 'class_summary');
export const HalfFlowListPage = listOf(halfFlowFamily, 'half_follow');
