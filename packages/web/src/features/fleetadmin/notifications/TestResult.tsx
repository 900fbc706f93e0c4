import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api.ts';

/** What "Send test" answered: in-app users reached, a delivery's result, or the refusal. */
export type TestOutcome =
  | { kind: 'sent'; n: number }
  | { kind: 'ok' }
  | { kind: 'failed'; reason: string }
  | { kind: 'refused'; reason: string };

export function testOutcome(
  reply: { ok?: boolean; reason?: string; sent?: number } | null,
  err: unknown,
): TestOutcome {
  if (reply === null) return { kind: 'refused', reason: err instanceof ApiError ? err.reason : String(err) };
  if (typeof reply.sent === 'number') return { kind: 'sent', n: reply.sent };
  return reply.ok ? { kind: 'ok' } : { kind: 'failed', reason: reply.reason ?? '' };
}

export function TestResult({ outcome }: { outcome: TestOutcome }) {
  const { t } = useTranslation();
  const good = outcome.kind === 'sent' || outcome.kind === 'ok';
  const text =
    outcome.kind === 'sent'
      ? t('fleetAdmin.notify.testSent', { n: outcome.n })
      : outcome.kind === 'ok'
        ? t('fleetAdmin.notify.testOk')
        : t('fleetAdmin.notify.testFailed', { reason: outcome.reason });
  return (
    <Alert color={good ? 'green' : 'red'} role="status" data-testid="notify-test-result" p="xs">
      {text}
    </Alert>
  );
}
