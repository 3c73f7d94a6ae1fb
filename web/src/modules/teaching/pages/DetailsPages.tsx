import { RecordFamilyDetails } from '../../../kit/records';
import { classSummaryFamily, classWorkFamily } from '../families/classes';
import { halfFlowFamily } from '../families/halfFlow';
import { teacherPlanFamily } from '../families/plan';
import { projectFamily, researchFamily } from '../families/research';

export const PlanDetailsPage = () => <RecordFamilyDetails family={teacherPlanFamily} />;
export const ResearchDetailsPage = () => <RecordFamilyDetails family={researchFamily} />;
export const ProjectDetailsPage = () => <RecordFamilyDetails family={projectFamily} />;
export const ClassWorkDetailsPage = () => <RecordFamilyDetails family={classWorkFamily} />;
export const ClassSummaryDetailsPage = () => <RecordFamilyDetails family={classSummaryFamily} />;
export const HalfFollowDetailsPage = () => <RecordFamilyDetails family={halfFlowFamily} />;
