/** How opening a live week can fail (connection.ts), and the plain GET that tells a service not served from no network. */

/** The server refused the document (4403 no access, 4400 bad name). */
export class CollabDenied extends Error {
  constructor(readonly code: number) {
    super(`collab: refused (${code})`);
    this.name = 'CollabDenied';
  }
}

/** The collab service is not served where the page looks for it (SERVICES without collab). */
export class CollabUnavailable extends Error {
  constructor() {
    super('collab: the live co-editing service is not served');
    this.name = 'CollabUnavailable';
  }
}

/** This device's copy belonged to another epoch of the document (4409): deleted; open the week again. */
export class CollabReplaced extends Error {
  constructor(readonly dropped: boolean) {
    super('collab: the document was replaced on the server');
    this.name = 'CollabReplaced';
  }
}

/** The HTTP status of a plain GET of `url` (null: no answer): tells "not served" (404) from "no network". */
export async function fetchStatus(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, { method: 'GET', cache: 'no-store', credentials: 'omit' });
    return response.status;
  } catch {
    return null;
  }
}

/** `ws(s)://host/api/collab` + `week:1` → `http(s)://host/api/collab/week:1`. */
export const probeUrlOf = (serverUrl: string, docName: string) =>
  `${serverUrl.replace(/^ws(s?):/, 'http$1:').replace(/\/+$/, '')}/${docName}`;
