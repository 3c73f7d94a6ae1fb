import { ActionIcon, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

interface IconActionProps {
  /** Its tooltip, and its name for screen readers. */
  label: string;
  /** The icon. */
  children: ReactNode;
  /** A link there instead of a button. */
  to?: string;
  onClick?: () => void;
  color?: string;
  disabled?: boolean;
  loading?: boolean;
  'data-testid'?: string;
}

/** A small icon button of a row or a tool bar, named by its tooltip. */
export function IconAction({ label, to, ...rest }: IconActionProps) {
  return (
    <Tooltip label={label}>
      {to ? (
        <ActionIcon variant="subtle" component={Link} to={to} aria-label={label} {...rest} />
      ) : (
        <ActionIcon variant="subtle" aria-label={label} {...rest} />
      )}
    </Tooltip>
  );
}
