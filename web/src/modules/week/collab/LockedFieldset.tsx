import type { ReactNode } from 'react';
import classes from './collab.module.css';

/**
 * Disables every input, select and button inside while `locked` (a co-edited week that
 * turned read-only): nothing typed would be kept. Rich editors lock themselves (open.ts).
 */
export function LockedFieldset({ locked, children }: { locked: boolean; children: ReactNode }) {
  return (
    <fieldset className={classes.fieldset} disabled={locked} data-locked={locked || undefined}>
      {children}
    </fieldset>
  );
}
