import { ActionIcon, type ActionIconProps, Tooltip } from '@mantine/core';
import { forwardRef, type ReactNode } from 'react';
import classes from './TopBar.module.css';

interface HeaderIconProps extends ActionIconProps {
  label: string;
  children: ReactNode;
  onClick?: () => void;
  'data-testid'?: string;
}

/** A round icon button of the top bar with a tooltip. */
export const HeaderIcon = forwardRef<HTMLButtonElement, HeaderIconProps>(function HeaderIcon(
  { label, children, ...props },
  ref,
) {
  return (
    <Tooltip label={label} openDelay={300}>
      <ActionIcon
        ref={ref}
        variant="subtle"
        size={36}
        radius="xl"
        className={classes.icon}
        aria-label={label}
        {...props}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
});
