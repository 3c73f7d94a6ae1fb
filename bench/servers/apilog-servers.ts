// Two Sprout apps over one PostgreSQL database, in one process (only one is loaded at a time):
//  - on:  the app as served, the API log on (every write call buffered and written in batches)
//  - off: the same app without the log context's request hooks (no API log, no error log rows)
import { CONTEXTS } from '@sprout/api/contexts';
import { startOnOff, USER_PAGE } from './on-off';

const { on, off, headers } = await startOnOff({
  contexts: CONTEXTS.map((c) => (c.name === 'log' ? { ...c, hooks: undefined } : c)),
});
// The write: updating one parameter to the same values (a real write transaction, 200 every time).
const added = await on.app.inject({
  method: 'POST',
  url: '/api/blade-system/param/submit',
  headers,
  payload: { paramName: '基准', paramKey: 'bench.apilog', paramValue: '1' },
});
const param = added.json().data as { id: string };
console.log(
  JSON.stringify({
    on: on.url,
    off: off.url,
    list: USER_PAGE,
    write: '/api/blade-system/param/submit',
    writeBody: JSON.stringify({ id: param.id, paramName: '基准', paramKey: 'bench.apilog', paramValue: '1' }),
    headers,
  }),
);
