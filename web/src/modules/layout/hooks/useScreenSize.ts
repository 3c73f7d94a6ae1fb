import { useEffect, useState } from 'react';
import { BREAKPOINTS } from '../../../config/constants';

/** Spec §4 screen size class: ≥1200 → 3, ≥992 → 2, ≥768 → 1, else 0. */
export function screenSizeOf(width: number): 0 | 1 | 2 | 3 {
  const [sm, md, lg] = BREAKPOINTS;
  if (width >= lg) return 3;
  if (width >= md) return 2;
  if (width >= sm) return 1;
  return 0;
}

export function useScreenSize(): 0 | 1 | 2 | 3 {
  const [size, setSize] = useState(() => screenSizeOf(window.innerWidth));
  useEffect(() => {
    const onResize = () => setSize(screenSizeOf(window.innerWidth));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}
