/** Whether the browser shows a file itself: images in `<img>`, PDFs in a frame. */
export const previewOf = (mime: string, extension: string): 'image' | 'pdf' | null => {
  if (mime.startsWith('image/')) return 'image';
  if (mime === 'application/pdf' || extension === 'pdf') return 'pdf';
  return null;
};

/** 12.3 KB / 4.5 MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
