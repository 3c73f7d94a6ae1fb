export { type ExportPlan, type ExportStatus, type ExportWeek, renderWeekDocx, type WeekExportInput } from './docx';
export { EXPORT_LABELS, type ExportLabels } from './labels';
export { type PMDoc, type PMNode, type RichOptions, type RichValue, richToParagraphs } from './rich';
export { docxParagraphs, docxPart, docxText } from './testing';
export { safeFileName, uniqueNames, type ZipEntry, zipFiles } from './zip';
export { type RecordSheetInput, renderRecordSheet } from './sheet';
