import { useEffect, useState } from 'react';
import { classApi } from '../api';
import type { ClassOption } from '../model/types';

const cache = new Map<string, Promise<ClassOption[]>>();

/** Classes for a select: the ones the caller teaches (`mine`) or every class in their scope. Cached per page load. */
export function useClasses(which: 'mine' | 'scope'): { classes: ClassOption[]; loading: boolean } {
  const [state, setState] = useState<{ classes: ClassOption[]; loading: boolean }>({ classes: [], loading: true });
  useEffect(() => {
    let live = true;
    let promise = cache.get(which);
    if (!promise) {
      promise = (which === 'mine' ? classApi.mine() : classApi.inScope()).catch(() => {
        cache.delete(which);
        return [];
      });
      cache.set(which, promise);
    }
    void promise.then((classes) => {
      if (live) setState({ classes, loading: false });
    });
    return () => {
      live = false;
    };
  }, [which]);
  return state;
}
