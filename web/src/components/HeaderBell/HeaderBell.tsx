import { ActionIcon, Indicator, Popover, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './HeaderBell.module.css';

/** The classes of a bell's list: `row` (a clickable row), `scroll` (the scrolling box). */
export const bellListClasses = { row: classes.row, scroll: classes.scroll };

interface HeaderBellProps {
  /** The icon on the button. */
  icon: ReactNode;
  /** Its tooltip and accessible name (say the unread count when there is one). */
  label: string;
  /** Unread items: a red badge on the icon when there are any. */
  count: number;
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** `<testId>` on the button (with `data-count`), `<testId>-count` on the badge, `<testId>-list` on the dropdown. */
  testId: string;
  width?: number;
  /** What the dropdown shows. */
  children: ReactNode;
}

/** A top-bar button with an unread count that opens a list under it: the notices' bell, the messages. */
export function HeaderBell({ icon, label, count, opened, onChange, testId, width = 340, children }: HeaderBellProps) {
  return (
    <Popover opened={opened} onChange={onChange} width={width} position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        <Tooltip label={label} openDelay={300} disabled={opened}>
          <Indicator
            label={count > 99 ? '99+' : count}
            size={16}
            color="red"
            offset={7}
            disabled={count === 0}
            data-testid={`${testId}-count`}
          >
            <ActionIcon
              variant="subtle"
              size={36}
              radius="xl"
              aria-label={label}
              onClick={() => onChange(!opened)}
              data-testid={testId}
              data-count={count}
            >
              {icon}
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p="xs" data-testid={`${testId}-list`}>
        {children}
      </Popover.Dropdown>
    </Popover>
  );
}
