import { Card, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './BasicContainer.module.css';

interface BasicContainerProps {
  title?: ReactNode;
  /** Actions at the right of the title. */
  extra?: ReactNode;
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
}

/** The basic container card every screen's content sits in (spec §2). */
export function BasicContainer({ title, extra, children, className, ...rest }: BasicContainerProps) {
  return (
    <Card className={className ? `${classes.root} ${className}` : classes.root} padding="lg" {...rest}>
      {(title || extra) && (
        <Group justify="space-between" className={classes.head} wrap="nowrap">
          {typeof title === 'string' ? (
            <Text fw={600} size="md">
              {title}
            </Text>
          ) : (
            title
          )}
          {extra}
        </Group>
      )}
      {children}
    </Card>
  );
}
