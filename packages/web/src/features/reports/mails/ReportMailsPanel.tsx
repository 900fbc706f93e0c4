import { type ReportMailWire, type ReportType, routes } from '@fleetkeep/core';
import { Badge, Button, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataColumn } from '../../../components/DataTable/DataTable.tsx';
import { ListPanel } from '../../../components/ListPanel.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { LANGUAGE_NAMES, type Language } from '../../../i18n/languages.ts';
import { ApiError } from '../../../lib/api.ts';
import { fleetTime } from '../../../lib/fleetTime.ts';
import { useSession } from '../../../lib/session.ts';
import { useCan } from '../../../lib/useCan.ts';
import { useDeleteReportMail, useReportMails, useSendReportMail } from './api.ts';
import { ReportMailDialog } from './ReportMailDialog.tsx';
import { scheduleParts } from './rules.ts';

/**
 * The report mails of the fleet (spec §7 "Report mails"), a tab of the /reports screen:
 * each mail's report, format, schedule, recipients, last send (time and result) and next send. Users
 * with `report.mail` create, edit and delete mails and "Send now"; readers (`report.view`) see the list.
 */
export function ReportMailsPanel({ fid, report }: { fid: number; report: ReportType }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';
  const canWrite = useCan(routes.reportmails.update);
  const mails = useReportMails(fid);
  const remove = useDeleteReportMail(fid);
  const send = useSendReportMail(fid);
  const [dialog, setDialog] = useState<{ mail: ReportMailWire | null } | null>(null);
  const [asking, setAsking] = useState<ReportMailWire | null>(null);
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const lang = i18n.language;

  // One clock: the fleet's, its zone named when the browser's differs (docs/product.md).
  const when = (unix: number) => fleetTime(unix, fleet?.tz, { dateFormat, timeFormat });
  const schedule = (m: ReportMailWire) => scheduleParts(m, lang, (k, v) => t(k, v)).join(' · ');
  const lastText = (m: ReportMailWire) =>
    m.last_sent === null
      ? t('reportMails.never')
      : `${when(m.last_sent)} · ${m.last_ok === 1 ? t('reportMails.sent') : t('reportMails.failed', { reason: m.last_result ?? '' })}`;

  const sendNow = (m: ReportMailWire) => {
    setNotice(null);
    send.mutate(m.id, {
      onSuccess: (reply) =>
        setNotice(
          reply.ok
            ? { ok: true, text: t('reportMails.sendOk') }
            : { ok: false, text: t('reportMails.failed', { reason: reply.reason ?? '' }) },
        ),
      onError: (err) =>
        setNotice({
          ok: false,
          text: t('reportMails.failed', { reason: err instanceof ApiError ? err.reason : String(err) }),
        }),
    });
  };

  const columns: DataColumn<ReportMailWire>[] = [
    {
      id: 'name',
      header: t('fleetAdmin.notify.name'),
      value: (m) => m.name,
      cell: (m) => (
        <Stack gap={2}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {m.name}
          </Text>
          {m.enabled !== 1 && (
            <Badge color="gray" variant="light" size="sm">
              {t('reportMails.off')}
            </Badge>
          )}
        </Stack>
      ),
    },
    {
      id: 'report',
      header: t('reports.screen.type'),
      value: (m) => `${t(`reports.type.${m.report}`)} · ${m.format.toUpperCase()}`,
    },
    { id: 'schedule', header: t('reportMails.every'), value: schedule, sortable: false },
    {
      id: 'recipients',
      header: t('fleetAdmin.notify.recipients'),
      value: (m) => `${LANGUAGE_NAMES[m.lang as Language] ?? m.lang} · ${m.recipients.join(', ')}`,
      sortable: false,
      cell: (m) => (
        <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
          {LANGUAGE_NAMES[m.lang as Language] ?? m.lang} · {m.recipients.join(', ')}
        </Text>
      ),
    },
    {
      id: 'last',
      header: t('reportMails.lastSend'),
      value: (m) => m.last_sent ?? 0,
      text: lastText,
      cell: (m) =>
        m.last_sent === null ? (
          <Text size="sm" c="dimmed">
            {t('reportMails.never')}
          </Text>
        ) : (
          <Stack gap={2} data-testid={`reportmail-last-${m.id}`}>
            <Text size="sm">{when(m.last_sent)}</Text>
            <Badge
              color={m.last_ok === 1 ? 'green' : 'red'}
              variant="light"
              size="sm"
              title={m.last_result ?? undefined}
              style={{ maxWidth: '16rem' }}
            >
              {m.last_ok === 1
                ? t('reportMails.sent')
                : t('reportMails.failed', { reason: m.last_result ?? '' })}
            </Badge>
          </Stack>
        ),
    },
    {
      id: 'next',
      header: t('reportMails.nextSend'),
      value: (m) => m.next_due ?? Number.MAX_SAFE_INTEGER,
      text: (m) => (m.next_due === null ? t('reportMails.off') : when(m.next_due)),
    },
  ];
  return (
    <ListPanel
      testId="reportmails"
      header={
        <Text size="sm" c="dimmed">
          {t('reportMails.intro')}
        </Text>
      }
      notice={notice}
      noticeTestId="reportmail-notice"
      onNoticeClose={() => setNotice(null)}
      list={mails}
      loading={<Loading />}
      loadError={mails.error instanceof ApiError ? mails.error.reason : t('fleetAdmin.notify.loadFailed')}
      columns={columns}
      getRowId={(m) => String(m.id)}
      urlPrefix="rm"
      emptyText={t('reportMails.empty')}
      minWidth={820}
      data-testid="reportmail-table"
      create={
        canWrite
          ? {
              label: t('reportMails.new'),
              testId: 'reportmail-new',
              onClick: () => setDialog({ mail: null }),
            }
          : null
      }
      actions={
        canWrite
          ? {
              name: (m) => m.name,
              testIdPrefix: 'reportmail',
              onEdit: (m) => setDialog({ mail: m }),
              onDelete: setAsking,
              before: (m) => (
                <Button
                  size="xs"
                  variant="subtle"
                  aria-label={`${t('reportMails.sendNow')}: ${m.name}`}
                  loading={send.isPending && send.variables === m.id}
                  disabled={send.isPending}
                  onClick={() => sendNow(m)}
                  data-testid={`reportmail-send-${m.id}`}
                >
                  {t('reportMails.sendNow')}
                </Button>
              ),
            }
          : null
      }
      confirm={{
        opened: asking !== null,
        title: t('common.delete'),
        text: asking ? t('reportMails.deleteText', { name: asking.name }) : '',
        busy: remove.isPending,
        onCancel: () => setAsking(null),
        onConfirm: () => {
          if (!asking) return;
          remove.mutate(asking.id, {
            onSettled: () => setAsking(null),
            onError: (err) =>
              setNotice({
                ok: false,
                text: t('fleetAdmin.notify.deleteFailed', {
                  reason: err instanceof ApiError ? err.reason : String(err),
                }),
              }),
          });
        },
      }}
    >
      {dialog && (
        <ReportMailDialog
          fid={fid}
          mail={dialog.mail}
          lang={lang}
          report={report}
          onClose={() => setDialog(null)}
        />
      )}
    </ListPanel>
  );
}
