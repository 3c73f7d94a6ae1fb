import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';
import { Alert } from '@mantine/core';
import Modeler from 'bpmn-js/lib/Modeler';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './BpmnModeler.module.css';
import type { BusinessObject } from './elements';
import { type ModelerElement, PropertiesPanel } from './PropertiesPanel';

/** What the page asks of the modeler: the XML with the process named by the model. */
export interface ModelerHandle {
  /** The diagram's XML, its process's id and name set to the model's key and name first. */
  xml(key: string, name: string): Promise<string>;
}

interface Props {
  xml: string;
  onReady: (handle: ModelerHandle) => void;
}

interface Services {
  canvas: { zoom(level: string): void; getRootElement(): ModelerElement };
  modeling: { updateProperties(element: ModelerElement, props: Record<string, unknown>): void };
  eventBus: { on(event: string, fn: (e: { newSelection?: ModelerElement[]; element?: ModelerElement }) => void): void };
}

/**
 * bpmn-js's modeler (this file is its own chunk: the page loads it lazily) beside our
 * properties panel. The palette draws events, tasks, gateways and flows; the panel edits what
 * our engine reads (docs/WORKFLOW.md).
 */
export default function BpmnModeler({ xml, onReady }: Props) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [modeler, setModeler] = useState<Modeler | null>(null);
  const [selected, setSelected] = useState<ModelerElement | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const ready = useRef(onReady);
  ready.current = onReady;

  useEffect(() => {
    if (!host.current) return;
    const instance = new Modeler({ container: host.current });
    let cancelled = false;
    const get = <K extends keyof Services>(name: K) => instance.get(name) as Services[K];
    get('eventBus').on('selection.changed', (e) => {
      const only = e.newSelection?.length === 1 ? (e.newSelection[0] ?? null) : null;
      setSelected(only);
    });
    get('eventBus').on('elements.changed', () => setVersion((v) => v + 1));
    instance
      .importXML(xml)
      .then(() => {
        if (cancelled) return;
        get('canvas').zoom('fit-viewport');
        setModeler(instance);
        ready.current({
          async xml(key, name) {
            const root = get('canvas').getRootElement();
            const bo = root.businessObject as BusinessObject;
            if (bo.id !== key || (bo.name ?? '') !== name) {
              get('modeling').updateProperties(root, { id: key, name });
            }
            const { xml: text } = await instance.saveXML({ format: true });
            return text ?? '';
          },
        });
      })
      .catch((e: Error) => {
        if (!cancelled) setError(e.message);
      });
    return () => {
      cancelled = true;
      instance.destroy();
    };
  }, [xml]);

  return (
    <div className={classes.frame}>
      {error && (
        <Alert color="red" className={classes.error}>
          {t('flow.modeler.loadFailed', { message: error })}
        </Alert>
      )}
      <div ref={host} className={classes.canvas} data-testid="bpmn-modeler" data-ready={modeler ? 'yes' : 'no'} />
      <div className={classes.panel}>
        {modeler && <PropertiesPanel modeler={modeler} element={selected} version={version} />}
      </div>
    </div>
  );
}
