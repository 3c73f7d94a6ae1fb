// Two Sprout apps over one PostgreSQL database, in one process (only one is loaded at a time):
//  - on:  the full stack as served (security headers and CORS, rate limits, the shared text rule)
//  - off: the same app built with `hardening: false`
import { startOnOff, USER_PAGE } from './on-off';

const { on, off, headers } = await startOnOff({ hardening: false });
console.log(JSON.stringify({ on: `${on.url}${USER_PAGE}`, off: `${off.url}${USER_PAGE}`, headers }));
