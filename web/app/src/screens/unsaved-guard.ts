import { useEffect, useRef } from 'react';
import { useRouter } from '../router';

const QUESTION = 'Leave without saving? Your changes on this screen will be lost.';

/**
 * While `dirty`, leaving the screen asks first: closing or reloading the tab (beforeunload), the
 * editor's own links and the browser's Back and Forward (the router's check). Returns `release`,
 * for a save that then moves on.
 */
export function useUnsavedGuard(dirty: boolean, question = QUESTION): () => void {
  const { block } = useRouter();
  const state = useRef({ dirty, released: false });
  state.current.dirty = dirty;
  useEffect(() => block(() => !state.current.dirty || state.current.released || window.confirm(question)), [block, question]);
  useEffect(() => {
    if (!dirty) return undefined;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (state.current.released) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  return () => {
    state.current.released = true;
  };
}
