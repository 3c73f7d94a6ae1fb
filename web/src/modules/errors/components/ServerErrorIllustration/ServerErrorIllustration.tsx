import { ErrorScene } from '../ErrorScene/ErrorScene';

/** A drooping seedling in a pot and a watering can on its way: "something broke, we are on it". Decorative. */
export function ServerErrorIllustration() {
  return (
    <ErrorScene shadow={{ cy: 292, rx: 220, ry: 12 }}>
      {(pot) => (
        <>
          <path d="M60 70c0-9 7-16 16-16 3-8 11-13 20-12 8 1 13 7 15 14 7 0 13 6 13 14H60z" fill="#ffffff" />
          <text x="96" y="250" fontSize="96" fontWeight="800" fill="#409eff" opacity="0.12" fontFamily="sans-serif">
            500
          </text>
          {/* pot */}
          <path d="M196 206h112l-14 80h-84z" fill={pot} />
          <rect x="188" y="196" width="128" height="18" rx="6" fill="#337ecc" />
          {/* drooping seedling */}
          <path d="M252 196c0-30 4-52 22-66" stroke="#8fb27a" strokeWidth="5" strokeLinecap="round" fill="none" />
          <path d="M274 130c18 4 30 20 26 40-18-4-30-20-26-40z" fill="#b8d4a8" />
          <path d="M262 150c-16-8-36-2-44 16 16 8 36 2 44-16z" fill="#a6c893" />
          {/* watering can */}
          <g transform="translate(350 108) rotate(-18)">
            <rect x="0" y="20" width="70" height="52" rx="10" fill="#ffc53d" />
            <path d="M70 34l44-24" stroke="#ffc53d" strokeWidth="9" strokeLinecap="round" />
            <path d="M10 20c4-22 46-22 50 0" fill="none" stroke="#e0a526" strokeWidth="7" />
          </g>
          <g fill="#8cc5ff">
            <circle cx="452" cy="128" r="4" />
            <circle cx="442" cy="146" r="3.5" />
            <circle cx="460" cy="152" r="3" />
          </g>
          <path d="M470 60l3 8 8 3-8 3-3 8-3-8-8-3 8-3z" fill="#ffc53d" />
        </>
      )}
    </ErrorScene>
  );
}
