import { Text, Title } from '@mantine/core';

/** A list page's heading (the menu's name) and what the page is for under it. */
export function PageTitle({ title, intro }: { title: string; intro?: string }) {
  return (
    <div>
      <Title order={2} size="h4" data-testid="page-title">
        {title}
      </Title>
      {intro && (
        <Text size="sm" c="dimmed" mt={2}>
          {intro}
        </Text>
      )}
    </div>
  );
}
