import classes from './ScreenSketch.module.css';

export type SketchFocus = 'login' | 'sidebar' | 'topbar' | 'tabs' | 'search' | 'content' | 'lock' | 'theme';

/**
 * A small drawing of the platform's frame with one part highlighted, so each tutorial
 * step shows where on the screen it happens. Decorative: the text says it in words.
 */
export function ScreenSketch({ focus }: { focus: SketchFocus }) {
  const on = (part: SketchFocus) => (focus === part ? classes.focus : undefined);

  if (focus === 'login') {
    return (
      <svg viewBox="0 0 320 200" className={classes.root} aria-hidden focusable="false">
        <rect x="0.5" y="0.5" width="319" height="199" rx="12" className={classes.frame} />
        <rect x="1" y="1" width="170" height="198" rx="12" className={classes.brandSide} />
        <circle cx="86" cy="84" r="28" className={classes.leaf} />
        <rect x="52" y="124" width="68" height="8" rx="4" className={classes.line} />
        <rect x="62" y="138" width="48" height="6" rx="3" className={classes.lineSoft} />
        <rect x="190" y="40" width="110" height="124" rx="10" className={`${classes.card} ${classes.focus}`} />
        {[64, 88, 112].map((y) => (
          <rect key={y} x="202" y={y} width="86" height="14" rx="4" className={classes.input} />
        ))}
        <rect x="202" y="138" width="86" height="16" rx="5" className={classes.button} />
      </svg>
    );
  }

  if (focus === 'lock') {
    return (
      <svg viewBox="0 0 320 200" className={classes.root} aria-hidden focusable="false">
        <rect x="0.5" y="0.5" width="319" height="199" rx="12" className={classes.night} />
        <text x="160" y="74" textAnchor="middle" className={classes.clock}>
          09:41
        </text>
        <circle cx="160" cy="112" r="16" className={classes.avatar} />
        <rect x="110" y="140" width="100" height="18" rx="9" className={`${classes.glass} ${classes.focus}`} />
      </svg>
    );
  }

  return (
    <svg viewBox="0 0 320 200" className={classes.root} aria-hidden focusable="false">
      <rect x="0.5" y="0.5" width="319" height="199" rx="12" className={classes.frame} />
      {/* sidebar */}
      <path
        d="M12.5 1h51v198h-51a12 12 0 0 1-12-12V13a12 12 0 0 1 12-12z"
        className={`${classes.side} ${on('sidebar') ?? ''}`}
      />
      {[34, 52, 70, 88, 106, 124].map((y, i) => (
        <rect
          key={y}
          x="10"
          y={y}
          width={i === 1 ? 44 : 36}
          height="8"
          rx="4"
          className={i === 1 ? classes.sideActive : classes.sideItem}
        />
      ))}
      {/* top bar */}
      <rect x="64" y="1" width="255" height="26" className={`${classes.top} ${on('topbar') ?? ''}`} />
      {[76, 108, 140].map((x) => (
        <rect key={x} x={x} y="10" width="24" height="8" rx="4" className={classes.lineSoft} />
      ))}
      <rect x="200" y="8" width="54" height="12" rx="6" className={`${classes.input} ${on('search') ?? ''}`} />
      {[266, 282, 298].map((x) => (
        <circle
          key={x}
          cx={x}
          cy="14"
          r="5"
          className={`${classes.lineSoft} ${focus === 'theme' && x === 266 ? classes.focus : ''}`}
        />
      ))}
      {/* tabs */}
      <rect x="64" y="27" width="255" height="18" className={`${classes.tabs} ${on('tabs') ?? ''}`} />
      {[72, 112, 152].map((x, i) => (
        <rect
          key={x}
          x={x}
          y="31"
          width="34"
          height="10"
          rx="5"
          className={i === 1 ? classes.tabActive : classes.tab}
        />
      ))}
      {/* content */}
      <g>
        <rect x="74" y="54" width="236" height="40" rx="8" className={classes.hero} />
        {[74, 154, 234].map((x) => (
          <rect key={x} x={x} y="102" width="76" height="40" rx="8" className={classes.card} />
        ))}
        <rect x="74" y="150" width="236" height="40" rx="8" className={classes.card} />
      </g>
      {focus === 'content' && (
        <rect x="69" y="49" width="246" height="146" rx="10" fill="none" className={classes.focus} />
      )}
    </svg>
  );
}
