import { lazyNamespace, type WebContext } from '../../app/context';
import { crudPage } from '../../kit/crud/loader';
import type { LibraryMessages } from './i18n/zh-CN';

/**
 * The file library (资源库, issue 17): the files beside their kind tree (upload with progress,
 * preview of images and PDFs), the kinds, the file types and the text recognition screens.
 */
export const libraryContext: WebContext<'library', LibraryMessages> = {
  name: 'library',
  i18n: lazyNamespace('library', () => Promise.all([import('./i18n/zh-CN'), import('./i18n/en')])),
  pages: [],
  menuPages: {
    file: crudPage(() => import('./pages/LibraryPage'), 'LibraryPage'),
    file_kind: crudPage(() => import('./pages/KindsPage'), 'KindsPage'),
    file_type: crudPage(() => import('./pages/TypesPage'), 'TypesPage'),
    file_identify: crudPage(() => import('./pages/IdentifyPage'), 'IdentifyPage'),
  },
};
