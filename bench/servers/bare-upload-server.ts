// The reference for put-file: bare node:http that writes each request's body to a new file
// (a temp file renamed into place, as the local store does) and answers a small JSON. No
// multipart parsing, no sign-in, no type sniffing, no row: what HTTP on this machine costs.
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

const dir = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'sprout-bare-upload-'));
let n = 0;
const server = createServer(async (req, res) => {
  const name = join(dir, `${n++ % 200}.bin`);
  const tmp = `${name}.${randomUUID()}.part`;
  try {
    await pipeline(req, createWriteStream(tmp, { highWaterMark: 1024 * 1024 }));
    await rename(tmp, name);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
  } catch {
    res.writeHead(500).end();
  }
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}/upload` }));
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
