import { Gradient, useDrawingIds } from '../../../../components/Drawing/Drawing';
import classes from './SproutIllustration.module.css';

interface SproutIllustrationProps {
  className?: string;
}

/** A leaf of the seedling with its pale vein; it flutters (its class). */
function Leaf({ className, blade, vein, fill }: { className?: string; blade: string; vein: string; fill: string }) {
  return (
    <g className={className}>
      <path d={blade} fill={fill} />
      <path d={vein} stroke="#ffffff" strokeOpacity="0.55" strokeWidth="2" fill="none" strokeLinecap="round" />
    </g>
  );
}

/** A seedling growing out of an open book on green hills: the login page's brand picture. Decorative. */
export function SproutIllustration({ className }: SproutIllustrationProps) {
  const { sky, leafA, leafB, scene } = useDrawingIds('sky', 'leafA', 'leafB', 'scene');

  return (
    <svg
      viewBox="0 0 480 400"
      className={className ? `${classes.root} ${className}` : classes.root}
      aria-hidden
      focusable="false"
    >
      <defs>
        <Gradient id={sky} from="#d6e9ff" to="#f3f9ff" toAt={0.7} />
        <Gradient id={leafA} from="#a8e08a" to="#5cb43a" toward="down-right" />
        <Gradient id={leafB} from="#c3ee9f" to="#6cc24a" toward="down-left" />
        <clipPath id={scene}>
          <circle cx="240" cy="205" r="168" />
        </clipPath>
      </defs>

      {/* soft shadow of the round scene */}
      <ellipse cx="240" cy="382" rx="120" ry="10" fill="#409eff" opacity="0.08" />

      <g clipPath={`url(#${scene})`}>
        <rect x="60" y="30" width="360" height="360" fill={`url(#${sky})`} />
        {/* sun */}
        <circle cx="330" cy="104" r="36" fill="#fff1bf" opacity="0.9" />
        <circle cx="330" cy="104" r="22" fill="#ffd666" />
        {/* clouds */}
        <path
          d="M118 128c0-11 9-19 20-19 4-10 14-16 25-14 9 2 15 8 17 16 9 0 16 7 16 17H118z"
          fill="#ffffff"
          opacity="0.95"
        />
        <path
          d="M352 168c0-7 6-12 13-12 3-6 9-10 16-9 6 1 10 5 11 10 6 0 10 5 10 11h-50z"
          fill="#ffffff"
          opacity="0.8"
        />
        {/* hills */}
        <path d="M60 292c70-44 150-46 220-22 50 17 96 12 140-10v130H60z" fill="#d3efc4" />
        <path d="M60 326c80-30 170-28 250-12 44 9 80 6 110-6v82H60z" fill="#b2e096" />
        {/* little flowers */}
        <g>
          <circle cx="120" cy="338" r="5" fill="#ffb3c1" />
          <circle cx="120" cy="338" r="2" fill="#ffe58f" />
          <circle cx="372" cy="330" r="5" fill="#ffd666" />
          <circle cx="372" cy="330" r="2" fill="#ffffff" />
          <circle cx="396" cy="346" r="4" fill="#ffb3c1" />
          <circle cx="150" cy="356" r="3.5" fill="#ffd666" />
        </g>
      </g>

      {/* open book */}
      <g>
        <path d="M132 306q54-20 108 2 54-22 108-2v20q-54-18-108 4-54-22-108-4z" fill="#337ecc" />
        <path d="M136 300q52-22 104 0v22q-52-20-104 0z" fill="#409eff" />
        <path d="M344 300q-52-22-104 0v22q52-20 104 0z" fill="#409eff" />
        <path d="M146 294q46-22 94 0v20q-46-20-94 0z" fill="#ffffff" />
        <path d="M334 294q-46-22-94 0v20q46-20 94 0z" fill="#f1f7ff" />
        <g stroke="#a0cfff" strokeWidth="2" strokeLinecap="round" fill="none">
          <path d="M162 292q30-12 62 0" />
          <path d="M166 300q28-10 56 0" opacity="0.7" />
          <path d="M318 292q-30-12-62 0" />
          <path d="M314 300q-28-10-56 0" opacity="0.7" />
        </g>
      </g>

      {/* seedling */}
      <g className={classes.plant}>
        <path d="M240 296c-3-34 4-70 0-118" stroke="#5cb43a" strokeWidth="6" strokeLinecap="round" fill="none" />
        <Leaf
          className={classes.leafLeft}
          blade="M239 244c-28 4-66-10-78-44 36-10 70 8 78 44z"
          vein="M236 240c-18-6-40-20-60-34"
          fill={`url(#${leafA})`}
        />
        <Leaf
          className={classes.leafRight}
          blade="M242 210c12-30 48-50 84-42-8 34-46 52-84 42z"
          vein="M246 206c20-14 44-26 70-32"
          fill={`url(#${leafB})`}
        />
        <path d="M240 182c-13-14-12-36 2-50 13 15 12 36-2 50z" fill="#8fd46b" />
      </g>

      {/* sparkles around the scene */}
      <g className={classes.sparkles}>
        <path d="M70 88l4 10 10 4-10 4-4 10-4-10-10-4 10-4z" fill="#409eff" opacity="0.75" />
        <path d="M424 236l3 7 7 3-7 3-3 7-3-7-7-3 7-3z" fill="#ffc53d" />
        <path d="M402 58l2.5 6 6 2.5-6 2.5-2.5 6-2.5-6-6-2.5 6-2.5z" fill="#95d475" />
        <circle cx="58" cy="246" r="5" fill="#a0cfff" />
        <circle cx="90" cy="210" r="3" fill="#ffd666" />
        <circle cx="440" cy="150" r="4" fill="#c6e2ff" />
      </g>
    </svg>
  );
}
