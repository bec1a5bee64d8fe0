import { useCallback, useEffect, useRef } from 'react';
import type { WorkerOut } from './parse.worker';
import type { ParsedFile, ParseFailure } from './parseFile';

/** Parses a file in the import worker; one worker per import tab, ended with it. */
export function useParseWorker() {
  const worker = useRef<Worker | null>(null);
  useEffect(() => () => worker.current?.terminate(), []);
  return useCallback((bytes: ArrayBuffer, onProgress: (done: number) => void) => {
    worker.current?.terminate();
    const w = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    return new Promise<ParsedFile>((resolve, reject) => {
      w.onmessage = (event: MessageEvent<WorkerOut>) => {
        const msg = event.data;
        if (msg.type === 'progress') onProgress(msg.done);
        else if (msg.type === 'done') resolve(msg.file);
        else reject(new Error(msg.reason satisfies ParseFailure));
      };
      w.onerror = () => reject(new Error('unreadable'));
      w.postMessage(bytes, [bytes]);
    });
  }, []);
}
