import { ErrorScene, GrassTufts } from '../ErrorScene/ErrorScene';

/** A garden gate, closed, with a seedling peeking over it: "you may not come in here". Decorative. */
export function ForbiddenIllustration() {
  return (
    <ErrorScene shadow={{ cy: 292, rx: 220, ry: 12 }}>
      {(wood) => (
        <>
          <path d="M70 80c0-9 7-16 16-16 3-8 11-13 20-12 8 1 13 7 15 14 7 0 13 6 13 14H70z" fill="#ffffff" />
          <path d="M392 60c0-7 6-12 13-12 3-6 9-9 16-8 6 1 10 5 11 10 6 0 10 5 10 10h-50z" fill="#ffffff" />
          {/* fence posts */}
          {[120, 170, 350, 400].map((x) => (
            <path key={x} d={`M${x} 286V150l16-18 16 18v136z`} fill={wood} opacity="0.55" />
          ))}
          {/* the gate */}
          <rect x="214" y="128" width="92" height="158" rx="10" fill={wood} />
          <rect x="226" y="140" width="68" height="134" rx="6" fill="#ffffff" opacity="0.25" />
          {/* padlock */}
          <path
            d="M246 206v-16a14 14 0 0 1 28 0v16"
            fill="none"
            stroke="#ffc53d"
            strokeWidth="7"
            strokeLinecap="round"
          />
          <rect x="238" y="204" width="44" height="36" rx="8" fill="#ffc53d" />
          <circle cx="260" cy="219" r="5" fill="#ad7b0e" />
          <path d="M260 222v9" stroke="#ad7b0e" strokeWidth="4" strokeLinecap="round" />
          {/* seedling peeking over */}
          <path d="M260 128c-1-16 1-30 0-44" stroke="#5cb43a" strokeWidth="5" strokeLinecap="round" fill="none" />
          <path d="M259 104c-18 2-38-7-44-28 21-5 40 6 44 28z" fill="#95d475" />
          <path d="M261 90c7-18 28-30 49-25-5 21-28 32-49 25z" fill="#7ac95a" />
          <GrassTufts y={288} tall={100} short={428} />
        </>
      )}
    </ErrorScene>
  );
}
