const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Writes a site-wide cookie the server can read (e.g. `language`). */
export function writeCookie(name: string, value: string, maxAgeSeconds: number = ONE_YEAR_SECONDS): void {
  // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie write is all that is needed here
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; SameSite=Lax`;
}

export function readCookie(name: string): string | null {
  const wanted = `${encodeURIComponent(name)}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(wanted)) return decodeURIComponent(item.slice(wanted.length));
  }
  return null;
}
