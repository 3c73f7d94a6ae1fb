import type { ReactNode } from 'react';
import { Gradient, useDrawingIds } from '../../../../components/Drawing/Drawing';

interface ErrorSceneProps {
  /** The soft shadow the scene stands on, centred. */
  shadow: { cy: number; rx: number; ry: number };
  /** Styles the picture; without one it is 100% wide. */
  className?: string;
  /** The scene's parts; `blue` fills with the sky-blue gradient of all three pictures. */
  children: (blue: string) => ReactNode;
}

/** The frame of the error pages' pictures (520 × 320, decorative: the page says it in words). */
export function ErrorScene({ shadow, className, children }: ErrorSceneProps) {
  const ids = useDrawingIds('blue');
  return (
    <svg viewBox="0 0 520 320" {...(className ? { className } : { width: '100%' })} aria-hidden focusable="false">
      <defs>
        <Gradient id={ids.blue} from="#8cc5ff" to="#409eff" />
      </defs>
      <ellipse cx="260" cy={shadow.cy} rx={shadow.rx} ry={shadow.ry} fill="#409eff" opacity="0.08" />
      {children(`url(#${ids.blue})`)}
    </svg>
  );
}

/** A tuft of grass standing on y around x: two blades leaning out and a taller one. */
const tuft = (x: number, y: number, blade: number, middle: number) =>
  `M${x - 8} ${y}l-6-${blade}M${x} ${y}v-${middle}M${x + 8} ${y}l6-${blade}`;

/** Two tufts of grass on the ground at y: a tall one at `tall`, a shorter one at `short`. */
export function GrassTufts({ y, tall, short }: { y: number; tall: number; short: number }) {
  return (
    <g stroke="#95d475" strokeWidth="4" strokeLinecap="round" fill="none">
      <path d={tuft(tall, y, 14, 18)} />
      <path d={tuft(short, y, 12, 16)} />
    </g>
  );
}
