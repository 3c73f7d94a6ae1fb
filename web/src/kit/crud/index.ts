/**
 * The console screens' kit (issue 16): a screen is a definition (`defineCrud`) rendered by
 * `CrudPage`. A platform folder: contexts import it, it imports no context. A context's
 * manifest imports `./loader` only (the kit arrives with the page's chunk).
 */
export { CrudPage } from './CrudPage';
export { CheckTreeDialog, type CheckTreeTab } from './CheckTreeDialog';
export { type CheckMode, type CheckTreeNode, type ServerTreeNode, toCheckTree } from './checkTree';
export * from './define';
export type { SelectionAction } from './SelectionActions';
export type { CrudFormAction } from './actions';
export { filterIcons, type IconChoice } from './fields';
export type { CrudExtras } from './CrudScreen';
export { RowButton } from './RowButtons';
export { CheckTree } from './CheckTree';
export { CrudScreen } from './CrudScreen';
export { type SideNode, treeNodes } from './relations';
export { crudKeys } from './api';
export { fromDateText, nowText, toDateText } from './dates';
export { SheetImportDialog, type SheetImportDialogProps } from './SheetImportDialog';
export { SheetMenu, type SheetMenuProps, sheetApi } from './SheetMenu';
export * from './sheetJob';
