import { RecordFamilyDetails } from '../../../kit/records';
import { creviewFamily, creviewTyFamily } from '../families/creview';
import { hearkenFamily } from '../families/hearken';
import { observationFamily } from '../families/observation';
import { regionalFamily } from '../families/regional';

/** `/observation/observationDetails`: any observation (a new one starts as a general one). */
export function ObservationDetailsPage() {
  return <RecordFamilyDetails family={observationFamily} />;
}

const PLAY = { type: 'play' };
const SHARING = { type: 'sharing' };

/** `/observation/autoObservationDetails` (kept alive): an autonomous-play observation. */
export function AutoObservationDetailsPage() {
  return <RecordFamilyDetails family={observationFamily} fixed={PLAY} />;
}

/** `/observation/shareDetails`: a reflective-sharing observation. */
export function ShareDetailsPage() {
  return <RecordFamilyDetails family={observationFamily} fixed={SHARING} />;
}

export function RegionalDetailsPage() {
  return <RecordFamilyDetails family={regionalFamily} />;
}

export function HearkenDetailsPage() {
  return <RecordFamilyDetails family={hearkenFamily} />;
}

export function CreviewDetailsPage() {
  return <RecordFamilyDetails family={creviewFamily} />;
}

/** `/creview/creviewDetailsTy`: the second school layout (per-domain tables). */
export function CreviewDetailsTyPage() {
  return <RecordFamilyDetails family={creviewTyFamily} />;
}
