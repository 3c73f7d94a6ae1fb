import { randomInt } from 'node:crypto';

type Stroke = Array<[number, number]>;

/**
 * A stroke font on a 4 × 6 grid (x right, y down), drawn as paths: the code never appears
 * as text in the SVG. Look-alikes (0/O/Q, 1/I/L... B/8) are left out of the alphabet.
 */
const GLYPHS: Record<string, Stroke[]> = {
  '2': [
    [
      [0, 1.5],
      [0.6, 0.3],
      [2, 0],
      [3.4, 0.3],
      [4, 1.5],
      [3.5, 2.7],
      [0, 6],
      [4, 6],
    ],
  ],
  '3': [
    [
      [0, 0.8],
      [1.5, 0],
      [3.3, 0.3],
      [3.8, 1.4],
      [3.2, 2.6],
      [1.6, 3],
    ],
    [
      [1.6, 3],
      [3.4, 3.4],
      [4, 4.6],
      [3.3, 5.7],
      [1.8, 6],
      [0, 5.3],
    ],
  ],
  '4': [
    [
      [3, 6],
      [3, 0],
      [0, 4.2],
      [4, 4.2],
    ],
  ],
  '5': [
    [
      [4, 0],
      [0.5, 0],
      [0.2, 2.8],
      [2, 2.4],
      [3.5, 2.9],
      [4, 4.3],
      [3.4, 5.6],
      [1.8, 6],
      [0, 5.4],
    ],
  ],
  '6': [
    [
      [3.6, 0.4],
      [2, 0],
      [0.7, 0.8],
      [0, 3],
      [0.2, 4.8],
      [1.2, 5.8],
      [2.6, 5.9],
      [3.7, 5.1],
      [3.9, 3.9],
      [3.2, 2.9],
      [2, 2.6],
      [0.8, 3],
      [0.1, 3.8],
    ],
  ],
  '7': [
    [
      [0, 0],
      [4, 0],
      [1.5, 6],
    ],
  ],
  '9': [
    [
      [3.9, 2.2],
      [3.2, 3.1],
      [2, 3.4],
      [0.8, 3],
      [0.1, 1.9],
      [0.6, 0.6],
      [2, 0],
      [3.4, 0.6],
      [4, 2.2],
      [3.6, 4.5],
      [2.4, 5.8],
      [0.6, 5.6],
    ],
  ],
  A: [
    [
      [0, 6],
      [2, 0],
      [4, 6],
    ],
    [
      [0.8, 3.8],
      [3.2, 3.8],
    ],
  ],
  C: [
    [
      [3.9, 1],
      [2.8, 0.1],
      [1.4, 0.1],
      [0.3, 1.2],
      [0, 3],
      [0.3, 4.8],
      [1.4, 5.9],
      [2.8, 5.9],
      [3.9, 5],
    ],
  ],
  D: [
    [
      [0, 0],
      [0, 6],
      [2, 6],
      [3.4, 5.2],
      [4, 3],
      [3.4, 0.8],
      [2, 0],
      [0, 0],
    ],
  ],
  E: [
    [
      [4, 0],
      [0, 0],
      [0, 6],
      [4, 6],
    ],
    [
      [0, 3],
      [3, 3],
    ],
  ],
  F: [
    [
      [4, 0],
      [0, 0],
      [0, 6],
    ],
    [
      [0, 3],
      [3, 3],
    ],
  ],
  G: [
    [
      [3.9, 1],
      [2.8, 0.1],
      [1.4, 0.1],
      [0.3, 1.2],
      [0, 3],
      [0.3, 4.8],
      [1.4, 5.9],
      [2.8, 5.9],
      [4, 5],
      [4, 3.4],
      [2.4, 3.4],
    ],
  ],
  H: [
    [
      [0, 0],
      [0, 6],
    ],
    [
      [4, 0],
      [4, 6],
    ],
    [
      [0, 3],
      [4, 3],
    ],
  ],
  J: [
    [
      [4, 0],
      [4, 4.5],
      [3.2, 5.8],
      [1.8, 6],
      [0.6, 5.4],
      [0, 4.4],
    ],
  ],
  K: [
    [
      [0, 0],
      [0, 6],
    ],
    [
      [4, 0],
      [0, 3.6],
    ],
    [
      [1.3, 2.6],
      [4, 6],
    ],
  ],
  M: [
    [
      [0, 6],
      [0, 0],
      [2, 3.5],
      [4, 0],
      [4, 6],
    ],
  ],
  N: [
    [
      [0, 6],
      [0, 0],
      [4, 6],
      [4, 0],
    ],
  ],
  P: [
    [
      [0, 6],
      [0, 0],
      [2.8, 0],
      [3.8, 0.8],
      [4, 1.8],
      [3.7, 2.8],
      [2.8, 3.4],
      [0, 3.4],
    ],
  ],
  R: [
    [
      [0, 6],
      [0, 0],
      [2.8, 0],
      [3.8, 0.8],
      [4, 1.8],
      [3.7, 2.8],
      [2.8, 3.4],
      [0, 3.4],
    ],
    [
      [2, 3.4],
      [4, 6],
    ],
  ],
  S: [
    [
      [3.8, 0.9],
      [2.6, 0],
      [1.2, 0.1],
      [0.2, 1],
      [0.4, 2.3],
      [2, 3],
      [3.6, 3.7],
      [3.9, 5],
      [2.9, 5.9],
      [1.2, 6],
      [0, 5.1],
    ],
  ],
  T: [
    [
      [0, 0],
      [4, 0],
    ],
    [
      [2, 0],
      [2, 6],
    ],
  ],
  U: [
    [
      [0, 0],
      [0, 4.3],
      [0.6, 5.6],
      [2, 6],
      [3.4, 5.6],
      [4, 4.3],
      [4, 0],
    ],
  ],
  V: [
    [
      [0, 0],
      [2, 6],
      [4, 0],
    ],
  ],
  W: [
    [
      [0, 0],
      [1, 6],
      [2, 2.5],
      [3, 6],
      [4, 0],
    ],
  ],
  X: [
    [
      [0, 0],
      [4, 6],
    ],
    [
      [4, 0],
      [0, 6],
    ],
  ],
  Y: [
    [
      [0, 0],
      [2, 3],
      [4, 0],
    ],
    [
      [2, 3],
      [2, 6],
    ],
  ],
  Z: [
    [
      [0, 0],
      [4, 0],
      [0, 6],
      [4, 6],
    ],
  ],
};

export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join('');

export function randomCode(length = 4): string {
  let s = '';
  for (let i = 0; i < length; i++) s += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  return s;
}

const WIDTH = 130;
const HEIGHT = 48;
/** A float in [a, b) from the CSPRNG (the noise must not be predictable either). */
const rnd = (a: number, b: number) => a + (randomInt(1_000_000) / 1_000_000) * (b - a);
const f = (n: number) => n.toFixed(1);

function colour(dark: boolean) {
  const [lo, hi] = dark ? [20, 110] : [140, 220];
  return `rgb(${randomInt(lo, hi)},${randomInt(lo, hi)},${randomInt(lo, hi)})`;
}

/** A smooth path through the points: quadratic curves via midpoints. */
function smoothPath(points: Array<[number, number]>): string {
  const [first, ...rest] = points;
  if (!first) return '';
  if (rest.length < 2) return `M${points.map(([x, y]) => `${f(x)} ${f(y)}`).join(' L')}`;
  let d = `M${f(first[0])} ${f(first[1])}`;
  for (let i = 0; i < rest.length - 1; i++) {
    const [cx, cy] = rest[i] as [number, number];
    const [nx, ny] = rest[i + 1] as [number, number];
    d += ` Q${f(cx)} ${f(cy)} ${f((cx + nx) / 2)} ${f((cy + ny) / 2)}`;
  }
  const last = rest[rest.length - 1] as [number, number];
  return `${d} L${f(last[0])} ${f(last[1])}`;
}

/** Renders `code` as an SVG: each glyph rotated, scaled and jittered, over noise curves and dots. */
export function renderCaptchaSvg(code: string): string {
  const parts: string[] = [];
  parts.push(
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="rgb(${randomInt(235, 256)},${randomInt(235, 256)},${randomInt(235, 256)})"/>`,
  );
  for (let i = 0; i < 3; i++) {
    parts.push(
      `<path d="M${f(rnd(0, 20))} ${f(rnd(5, 43))} C${f(rnd(20, 60))} ${f(rnd(0, 48))} ${f(rnd(60, 110))} ${f(rnd(0, 48))} ${f(rnd(110, 130))} ${f(rnd(5, 43))}" stroke="${colour(false)}" stroke-width="${f(rnd(1, 2.5))}" fill="none"/>`,
    );
  }
  const step = (WIDTH - 20) / code.length;
  [...code.toUpperCase()].forEach((ch, i) => {
    const strokes = GLYPHS[ch];
    if (!strokes) throw new Error(`no glyph for ${ch}`);
    const scale = rnd(4.2, 5.4);
    const angle = (rnd(-28, 28) * Math.PI) / 180;
    const cx = 10 + step * i + step / 2 + rnd(-2, 2);
    const cy = HEIGHT / 2 + rnd(-3, 3);
    const skew = rnd(-0.25, 0.25);
    const place = ([x, y]: [number, number]): [number, number] => {
      const jx = x + rnd(-0.22, 0.22) - 2 + skew * (y - 3);
      const jy = y + rnd(-0.22, 0.22) - 3;
      const sx = jx * scale;
      const sy = jy * scale;
      return [cx + sx * Math.cos(angle) - sy * Math.sin(angle), cy + sx * Math.sin(angle) + sy * Math.cos(angle)];
    };
    const stroke = colour(true);
    const width = f(rnd(2.2, 3.2));
    for (const s of strokes) {
      parts.push(
        `<path d="${smoothPath(s.map(place))}" stroke="${stroke}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round" fill="none"/>`,
      );
    }
  });
  for (let i = 0; i < 2; i++) {
    parts.push(
      `<path d="M${f(rnd(0, 15))} ${f(rnd(8, 40))} Q${f(rnd(40, 90))} ${f(rnd(-10, 58))} ${f(rnd(115, 130))} ${f(rnd(8, 40))}" stroke="${colour(true)}" stroke-width="${f(rnd(0.8, 1.6))}" fill="none"/>`,
    );
  }
  for (let i = 0; i < 40; i++) {
    parts.push(
      `<circle cx="${f(rnd(0, WIDTH))}" cy="${f(rnd(0, HEIGHT))}" r="${f(rnd(0.5, 1.6))}" fill="${colour(i % 2 === 0)}"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">${parts.join('')}</svg>`;
}

export function captchaDataUrl(code: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(renderCaptchaSvg(code)).toString('base64')}`;
}
