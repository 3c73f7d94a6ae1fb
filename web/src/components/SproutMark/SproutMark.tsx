interface SproutMarkProps {
  size?: number;
  className?: string;
}

/** The Sprout logo: a seedling on a rounded blue tile. Decorative; pair it with the product name. */
export function SproutMark({ size = 40, className }: SproutMarkProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" className={className} aria-hidden focusable="false">
      <defs>
        <linearGradient id="sprout-mark-bg" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#5aabff" />
          <stop offset="1" stopColor="#2f86e6" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="18" fill="url(#sprout-mark-bg)" />
      <path d="M32 52V30" stroke="#ffffff" strokeWidth="4.5" strokeLinecap="round" />
      <path d="M31.5 35c-1.8-8.6-8.4-14.3-18-14.5 0 9.8 7.6 16.3 18 14.5z" fill="#c9f2b0" />
      <path d="M32.5 31c.8-10.6 8.6-17.6 19.2-17.8.2 11.4-7.8 18.6-19.2 17.8z" fill="#ffffff" />
    </svg>
  );
}
