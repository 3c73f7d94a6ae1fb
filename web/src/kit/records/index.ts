/**
 * The record-family kit (issue 18, "Web"): a teaching-record family declared as data
 * (`defineRecordFamily`) and the pages that render it — list tabs, the editor with autosave and
 * a local draft kept on a failed save, the printed detail with its history and review panel.
 * Imports no context.
 */
export {
  type FamilyApi,
  type FamilyRecord,
  type FamilyRow,
  familyApi,
  familyZipApi,
  type ZipExportApi,
  zipExportApi,
} from './api';
export { ExportProgressModal } from './components/ExportProgressModal';
export { RecordFamilyDetails } from './components/RecordFamilyDetails';
export { RecordFamilyList } from './components/RecordFamilyList';
export { ReviewDialog } from './components/ReviewDialog';
export { SaveIndicator } from './components/SaveIndicator';
export * from './define';
export { recordsNamespace, recordsPage } from './namespace';
