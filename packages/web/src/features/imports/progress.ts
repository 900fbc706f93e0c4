import { type ImportProgressEvent, type LiveEvent, UserEventType } from '@fleetkeep/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { addLiveEventFilter } from '../../lib/live.ts';

/** Where a running import is: the upload's share, then the server's reports (core events.ts type 128). */
export type ImportProgress =
  | { phase: 'upload'; share: number }
  | { phase: 'check' | 'write'; done: number; total: number };

/** A fresh name for one import run (the server echoes it in its progress events). */
function runId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `imp-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function isProgress(event: LiveEvent, id: string): event is LiveEvent<ImportProgressEvent> {
  const d = event.d as Partial<ImportProgressEvent> | null;
  return event.s === 'user' && d?.type === UserEventType.importProgress && d.id === id;
}

/**
 * The progress of the screen's import runs: `begin()` names a run and listens for its
 * events on the live socket until `end()`; the upload's share is set by the caller. A report older than
 * the one shown (a lower count of the same phase, a check after a write) is ignored.
 */
export function useImportProgress() {
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);

  const begin = useCallback((): string => {
    stop.current?.();
    const id = runId();
    setProgress({ phase: 'upload', share: 0 });
    stop.current = addLiveEventFilter((event) => {
      if (!isProgress(event, id)) return false;
      const { phase, done, total } = event.d;
      setProgress((old) => {
        if (old && old.phase !== 'upload') {
          if (old.phase === 'write' && phase === 'check') return old;
          if (old.phase === phase && old.done > done) return old;
        }
        return { phase, done, total };
      });
      return true;
    });
    return id;
  }, []);
  const uploaded = useCallback((share: number) => {
    setProgress((old) => (old === null || old.phase === 'upload' ? { phase: 'upload', share } : old));
  }, []);
  const end = useCallback(() => {
    stop.current?.();
    stop.current = null;
    setProgress(null);
  }, []);
  return { progress, begin, uploaded, end };
}
