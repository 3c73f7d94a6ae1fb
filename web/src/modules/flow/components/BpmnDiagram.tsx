import { Alert, Badge, Box, Group, Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './BpmnDiagram.module.css';

interface Props {
  xml: string;
  /** Elements already passed (tasks completed, flows taken, events reached). */
  done?: readonly string[];
  /** Elements the instance waits at now. */
  current?: readonly string[];
  height?: number;
}

/**
 * A process drawn by bpmn-js's navigated viewer (loaded in its own chunk on first use), the
 * done elements green and the current ones orange. Pan with the mouse, zoom with the wheel.
 */
export function BpmnDiagram({ xml, done = [], current = [], height = 360 }: Props) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const doneKey = done.join(',');
  const currentKey = current.join(',');

  useEffect(() => {
    let viewer: { destroy(): void } | null = null;
    let cancelled = false;
    setState('loading');
    (async () => {
      const [{ default: NavigatedViewer }] = await Promise.all([
        import('bpmn-js/lib/NavigatedViewer'),
        import('bpmn-js/dist/assets/diagram-js.css'),
        import('bpmn-js/dist/assets/bpmn-js.css'),
      ]);
      if (cancelled || !host.current) return;
      const instance = new NavigatedViewer({ container: host.current });
      viewer = instance;
      try {
        await instance.importXML(xml);
      } catch {
        if (!cancelled) setState('failed');
        return;
      }
      if (cancelled) return;
      const canvas = instance.get('canvas') as {
        zoom(level: string): void;
        addMarker(id: string, marker: string): void;
      };
      const registry = instance.get('elementRegistry') as { get(id: string): unknown };
      const mark = (ids: string, marker: string | undefined) => {
        for (const id of ids ? ids.split(',') : []) {
          if (marker && registry.get(id)) canvas.addMarker(id, marker);
        }
      };
      mark(doneKey, classes.done);
      mark(currentKey, classes.current);
      canvas.zoom('fit-viewport');
      setState('ready');
    })().catch(() => {
      if (!cancelled) setState('failed');
    });
    return () => {
      cancelled = true;
      viewer?.destroy();
    };
  }, [xml, doneKey, currentKey]);

  return (
    <Box>
      <Group gap="xs" mb={6}>
        <Badge color="green" variant="light" data-testid="diagram-legend-done">
          {t('flow.diagram.done')}
        </Badge>
        <Badge color="orange" variant="light">
          {t('flow.diagram.current')}
        </Badge>
      </Group>
      {state === 'failed' && <Alert color="red">{t('flow.diagram.failed')}</Alert>}
      <div
        ref={host}
        className={classes.canvas}
        style={{ height }}
        data-testid="flow-diagram"
        data-state={state}
        data-done={doneKey}
        data-current={currentKey}
      >
        {state === 'loading' && (
          <Group gap="xs" p="md">
            <Loader size="xs" />
            <Text size="sm" c="dimmed">
              {t('flow.diagram.loading')}
            </Text>
          </Group>
        )}
      </div>
    </Box>
  );
}
