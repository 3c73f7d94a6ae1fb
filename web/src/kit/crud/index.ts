/**
 * The console screens' kit (issue 16): a screen is a definition (`defineCrud`) rendered by
 * `CrudPage`. A platform folder: contexts import it, it imports no context. A context's
 * manifest imports `./loader` only (the kit arrives with the page's chunk).
 */
export { CrudPage } from './CrudPage';
export * from './define';
export type { CrudExtras } from './CrudScreen';
export { RowButton } from './RowButtons';
export { CheckTree } from './CheckTree';
export { CrudScreen } from './CrudScreen';
export { type SideNode, treeNodes } from './relations';
export { crudKeys } from './api';
