import { readFileSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { fmt, startServer, table } from './lib';

/** A ~1 MB png (noise does not compress), one per slot so no two requests send the same bytes object. */
async function image(seed: number): Promise<Buffer> {
  return sharp({
    create: {
      width: 580,
      height: 580,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 100 + seed, sigma: 60 },
    },
  })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/** How many images are stored under `dir` and how many of them have their thumbnail yet. */
async function stored(dir: string) {
  let images = 0;
  let thumbs = 0;
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!e.isFile()) continue;
    if (e.name.endsWith('.thumb.webp')) thumbs++;
    else if (e.name.endsWith('.png')) images++;
  }
  return { images, thumbs };
}

/** Waits until every stored image has its thumbnail (the server makes them after answering): seconds waited. */
async function thumbnailsDone(dir: string, limitSeconds = 120) {
  const start = performance.now();
  if (process.env.BENCH_NO_THUMBS) return 0;
  for (;;) {
    const s = await stored(dir);
    if (s.thumbs >= s.images || performance.now() - start > limitSeconds * 1000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return (performance.now() - start) / 1000;
}

/** The CPU time (ms, user + system, all threads) process `pid` used so far; 0 where /proc is missing. */
function cpuMs(pid: number | undefined) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return 0;
  }
}

/** `inFlight` workers calling `one` until `seconds` pass: completed calls per second. */
async function closedLoop(seconds: number, inFlight: number, one: (worker: number, n: number) => Promise<void>) {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async (_, w) => {
      for (let n = 0; Date.now() < end; n++) {
        await one(w, n);
        done++;
      }
    }),
  );
  return done / ((performance.now() - start) / 1000);
}

/**
 * Issue 17: put-file of 1 MB images (sniffed, streamed to the local store, attach row; the
 * thumbnail made after the answer in the same process)
 * with 16 in flight, against writing the same bytes with `fs` on the same disk with 16 in flight
 * (the floor). Prints both rates and their ratio (target ≥ 0.7). Figures, never pass/fail.
 */
export async function benchUpload(opts: { seconds: number; inFlight: number }) {
  const { info, child } = await startServer<{ url: string; headers: Record<string, string>; dataDir: string }>(
    'bench/servers/upload-server.ts',
    { LOG_LEVEL: 'silent', NODE_ENV: 'production' },
  );
  try {
    const images = await Promise.all(Array.from({ length: opts.inFlight }, (_, i) => image(i)));
    const mb = images[0]!.length / 1024 / 1024;
    // Each slot's multipart body is encoded once (the bytes a browser's FormData sends: a `kind`
    // field, then the file) and posted over kept-alive connections, so the client's own work
    // (building a FormData per request cost undici ~10–15 ms of CPU) does not compete with the
    // server for the same two cores; the floor's writes also start from ready buffers.
    const boundary = '----sproutbench7MA4YWxkTrZu0gW';
    const bodies = images.map((b, w) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nphoto\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo-${w}.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        b,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    );
    const agent = new Agent({ keepAlive: true, maxSockets: opts.inFlight });
    let refused = 0;
    const poster = (to: string, headers: Record<string, string>) => {
      const url = new URL(to);
      return (w: number) =>
        new Promise<void>((resolve, reject) => {
          const body = bodies[w]!;
          const req = request(
            {
              agent,
              host: url.hostname,
              port: url.port,
              path: url.pathname,
              method: 'POST',
              headers: {
                ...headers,
                'content-type': `multipart/form-data; boundary=${boundary}`,
                'content-length': String(body.length),
              },
            },
            (res) => {
              if (res.statusCode !== 200) refused++;
              res.resume();
              res.on('end', resolve);
              res.on('error', reject);
            },
          );
          req.on('error', reject);
          req.end(body);
        });
    };
    const put = poster(info.url, info.headers);
    // The reference: bare node:http writing the same bodies to files (no parsing, no sign-in, no row).
    const bare = await startServer<{ url: string }>('bench/servers/bare-upload-server.ts');
    const putBare = poster(bare.info.url, {});
    const floorDir = join(info.dataDir, 'floor');
    await mkdir(floorDir, { recursive: true });
    // The floor is the write a file store must do for an object it answers for: a temp file,
    // synced to disk, renamed into place, the directory synced (what the local store does).
    const write = async (w: number, n: number) => {
      const target = join(floorDir, `${w}-${n % 50}.png`);
      const tmp = `${target}.${n}.part`;
      const fh = await open(tmp, 'w');
      try {
        await fh.writeFile(images[w]!);
        await fh.sync();
      } finally {
        await fh.close();
      }
      await rename(tmp, target);
      const dir = await open(floorDir, 'r');
      await dir.sync();
      await dir.close();
    };
    // For reference: the same bytes left in the page cache (no sync), which no store may answer on.
    const cached = async (w: number, n: number) => writeFile(join(floorDir, `c${w}-${n % 50}.png`), images[w]!);
    const filesDir = join(info.dataDir, 'files');
    // Warm-up, then alternate so neither side gets the quieter moment. The thumbnails of a
    // round are made after its answers: each fs round starts once they all exist (the floor
    // does not run beside them), and the time they took past the round is shown.
    await closedLoop(2, opts.inFlight, put);
    await thumbnailsDone(filesDir);
    await closedLoop(1, opts.inFlight, putBare);
    const rounds: { api: number; fs: number; cached: number; bare: number; drain: number }[] = [];
    let serverCpu = 0;
    let bareCpuMs = 0;
    let bareUploads = 0;
    let uploads = 0;
    for (let i = 0; i < 2; i++) {
      const fs = await closedLoop(opts.seconds, opts.inFlight, write);
      const cachedRate = await closedLoop(opts.seconds, opts.inFlight, cached);
      const bareCpu = cpuMs(bare.child.pid);
      const bareRate = await closedLoop(opts.seconds, opts.inFlight, putBare);
      bareCpuMs += cpuMs(bare.child.pid) - bareCpu;
      bareUploads += bareRate * opts.seconds;
      const before = { cpu: cpuMs(child.pid), n: (await stored(filesDir)).images };
      const api = await closedLoop(opts.seconds, opts.inFlight, put);
      const drain = await thumbnailsDone(filesDir);
      serverCpu += cpuMs(child.pid) - before.cpu;
      uploads += (await stored(filesDir)).images - before.n;
      rounds.push({ api, fs, cached: cachedRate, bare: bareRate, drain });
    }
    const made = await stored(filesDir);
    const api = Math.max(...rounds.map((r) => r.api));
    const fs = Math.max(...rounds.map((r) => r.fs));
    const bareBest = Math.max(...rounds.map((r) => r.bare));
    table([
      { what: 'put-file (sniff, store, row; thumbnail queued)', 'files/s': fmt(api, 1), 'MB/s': fmt(api * mb, 1) },
      { what: 'fs: temp file, sync, rename (same bytes, same disk)', 'files/s': fmt(fs, 1), 'MB/s': fmt(fs * mb, 1) },
      {
        what: 'fs.writeFile, page cache only (reference)',
        'files/s': fmt(Math.max(...rounds.map((r) => r.cached)), 1),
        'MB/s': fmt(Math.max(...rounds.map((r) => r.cached)) * mb, 1),
      },
      { what: 'bare node:http → file (reference)', 'files/s': fmt(bareBest, 1), 'MB/s': fmt(bareBest * mb, 1) },
    ]);
    console.log(
      `image ${fmt(mb, 2)} MB, ${opts.inFlight} in flight; ratio put-file / fs = ${fmt(api / fs, 3)} (target ≥ 0.7)${refused ? `; ${refused} refused` : ''}; bare node:http / fs = ${fmt(bareBest / fs, 3)}, put-file / bare = ${fmt(api / bareBest, 3)}`,
    );
    console.log(
      `thumbnails: ${made.thumbs} of ${made.images} images made in the server after their answers; the queue emptied ${rounds.map((r) => `${fmt(r.drain, 1)} s`).join(' and ')} after the ${opts.seconds} s upload rounds`,
    );
    if (serverCpu && uploads)
      console.log(
        `server CPU per upload (request and its thumbnail, all threads): ${fmt(serverCpu / uploads, 2)} ms; bare node:http: ${fmt(bareCpuMs / Math.max(1, bareUploads), 2)} ms`,
      );
    await rm(floorDir, { recursive: true, force: true });
    agent.destroy();
    bare.child.kill('SIGTERM');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}
