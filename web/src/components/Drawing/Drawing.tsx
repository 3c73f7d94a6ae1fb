import { useId } from 'react';

/**
 * Ids for a drawing's gradients and clips, unique on the page (the same drawing may be shown
 * twice): `useDrawingIds('sky', 'leaf')` → `{ sky: '…-sky', leaf: '…-leaf' }`.
 */
export function useDrawingIds<N extends string>(...names: N[]): Record<N, string> {
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  return Object.fromEntries(names.map((name) => [name, `${id}-${name}`])) as Record<N, string>;
}

const TOWARD = {
  down: { x1: '0', y1: '0', x2: '0', y2: '1' },
  'down-right': { x1: '0', y1: '0', x2: '1', y2: '1' },
  'down-left': { x1: '1', y1: '0', x2: '0', y2: '1' },
} as const;

interface GradientProps {
  id: string;
  from: string;
  to: string;
  /** Where `to` is reached (0–1); default the far end. */
  toAt?: number;
  toward?: keyof typeof TOWARD;
}

/** A two-colour linear gradient of a drawing's `<defs>`, filled in as `url(#id)`. */
export function Gradient({ id, from, to, toAt = 1, toward = 'down' }: GradientProps) {
  return (
    <linearGradient id={id} {...TOWARD[toward]}>
      <stop offset="0" stopColor={from} />
      <stop offset={String(toAt)} stopColor={to} />
    </linearGradient>
  );
}
