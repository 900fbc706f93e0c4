import { useEffect, useState } from 'react';

type Ping = { state: 'loading' } | { state: 'ok'; release: string } | { state: 'error'; message: string };

/** Placeholder page until the app shell lands: shows that the SPA reaches the API. */
export function App() {
  const [ping, setPing] = useState<Ping>({ state: 'loading' });

  useEffect(() => {
    const abort = new AbortController();
    fetch('/api/ping', { signal: abort.signal })
      .then(async (res) => {
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const body = (await res.json()) as { release?: unknown };
        setPing({ state: 'ok', release: String(body.release ?? '') });
      })
      .catch((err: unknown) => {
        if (abort.signal.aborted) return;
        setPing({ state: 'error', message: err instanceof Error ? err.message : String(err) });
      });
    return () => abort.abort();
  }, []);

  return (
    <main
      style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}
    >
      <h1>Fleetkeep</h1>
      <p>Fleet maintenance and service management.</p>
      <p data-testid="release" aria-live="polite">
        {ping.state === 'loading' && 'Connecting to the server…'}
        {ping.state === 'ok' && `Server release ${ping.release}`}
        {ping.state === 'error' && `Server not reachable (${ping.message})`}
      </p>
    </main>
  );
}
