import { Gradient, useDrawingIds } from '../../../../components/Drawing/Drawing';
import { ErrorScene, GrassTufts } from '../ErrorScene/ErrorScene';
import classes from './NotFoundIllustration.module.css';

/** A crayon "4": the same stroke at two places. */
function Four({ d, stroke }: { d: string; stroke: string }) {
  return <path d={d} fill="none" stroke={stroke} strokeWidth="30" strokeLinecap="round" strokeLinejoin="round" />;
}

/** "404" drawn in crayon strokes; the 0 is a seedling's ring. Decorative: the page says it in words. */
export function NotFoundIllustration() {
  const ids = useDrawingIds('green');

  return (
    <ErrorScene shadow={{ cy: 286, rx: 230, ry: 14 }} className={classes.root}>
      {(blue) => (
        <>
          <defs>
            <Gradient id={ids.green} from="#b3e19d" to="#67c23a" toward="down-right" />
          </defs>

          {/* clouds and sparkles */}
          <path d="M52 72c0-9 7-16 16-16 3-8 11-13 20-12 8 1 13 7 15 14 7 0 13 6 13 14H52z" fill="#ffffff" />
          <path d="M410 50c0-7 6-12 13-12 3-6 9-9 16-8 6 1 10 5 11 10 6 0 10 5 10 10h-50z" fill="#ffffff" />
          <path d="M494 70l3 8 8 3-8 3-3 8-3-8-8-3 8-3z" fill="#ffc53d" />
          <path d="M36 170l2.5 6 6 2.5-6 2.5-2.5 6-2.5-6-6-2.5 6-2.5z" fill="#409eff" opacity="0.7" />

          <Four d="M146 262V102L58 210H180" stroke={blue} />
          {/* 0: a ring with a seedling growing out of it */}
          <ellipse cx="260" cy="190" rx="50" ry="70" fill="none" stroke={`url(#${ids.green})`} strokeWidth="30" />
          <g className={classes.seedling}>
            <path d="M260 106c-1-18 2-34 0-52" stroke="#5cb43a" strokeWidth="5" strokeLinecap="round" fill="none" />
            <path d="M259 84c-20 2-44-8-50-32 24-6 46 6 50 32z" fill="#95d475" />
            <path d="M261 66c8-20 32-34 56-28-6 24-32 36-56 28z" fill="#7ac95a" />
          </g>
          <Four d="M456 262V102L368 210H490" stroke={blue} />

          {/* grass tufts */}
          <GrassTufts y={284} tall={120} short={400} />
        </>
      )}
    </ErrorScene>
  );
}
