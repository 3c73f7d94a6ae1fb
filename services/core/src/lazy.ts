/**
 * A module loaded on its first use rather than when the process starts: `const excel =
 * lazyModule(() => import('exceljs'))`, then `(await excel()).default`. For the heavy libraries
 * only a few calls need (Excel, Word, PDF, images, S3, the SQL parser): together they were
 * 0.7 s of a warm start (issue 22, `npm run bench -- start`). The import runs once; a failed
 * one fails every call that waits on it.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load();
    return loading;
  };
}
