import type { BotSetupWire, InAppSetupWire, MailSetupWire, WebhookSetupWire } from '@fleetkeep/core';
import { Badge, Button, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataColumn } from '../../../components/DataTable/DataTable.tsx';
import { ListPanel } from '../../../components/ListPanel.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { LANGUAGE_NAMES, type Language } from '../../../i18n/languages.ts';
import { ApiError } from '../../../lib/api.ts';
import { kindTitleKey, notificationKindsOf } from '../../../lib/header.ts';
import { useDeleteSetup, useSetups, useTestSetup } from './api.ts';
import { type AnySetup, CHANNEL_TITLE, type Channel, draftOf, testBody } from './rules.ts';
import { SetupDialog } from './SetupDialog.tsx';
import { type TestOutcome, TestResult, testOutcome } from './TestResult.tsx';

const INTRO: Record<Channel, string> = {
  inapp: 'fleetAdmin.notify.inappIntro',
  mail: 'fleetAdmin.notify.mailIntro',
  bot: 'fleetAdmin.notify.botIntro',
  webhook: 'fleetAdmin.notify.webhookIntro',
};

/**
 * One channel's set-ups (PRODUCT.md "Notifications"): the table (name, kinds, on/off, the channel's language,
 * recipients, chats, URL or users), "New set-up", edit, "Send test" with its result, delete with confirm.
 */
export function SetupSection({
  fid,
  channel,
  users,
  lang,
}: {
  fid: number;
  channel: Channel;
  users: { value: string; label: string }[];
  lang: string;
}) {
  const { t } = useTranslation();
  const setups = useSetups(fid, channel);
  const remove = useDeleteSetup(fid, channel);
  const test = useTestSetup(fid, channel);
  const [dialog, setDialog] = useState<{ setup: AnySetup | null } | null>(null);
  const [asking, setAsking] = useState<AnySetup | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ id: number; outcome: TestOutcome } | null>(null);

  const userName = (id: number) => users.find((u) => u.value === String(id))?.label ?? `#${id}`;
  const langName = (l: string) => LANGUAGE_NAMES[l as Language] ?? l;
  const detail = (s: AnySetup): string => {
    if (channel === 'inapp') {
      const list = (s as InAppSetupWire).users;
      return list.length === 0 ? t('fleetAdmin.notify.allMembers') : list.map(userName).join(', ');
    }
    if (channel === 'mail') {
      const m = s as MailSetupWire;
      return `${langName(m.lang)} · ${m.recipients.join(', ')}`;
    }
    if (channel === 'bot') {
      const b = s as BotSetupWire;
      return `${langName(b.lang)} · ${b.chats.join(', ')} · ${b.url}`;
    }
    const w = s as WebhookSetupWire;
    return `${langName(w.lang)} · ${w.url}${w.secret_set === 1 ? ` · ${t('fleetAdmin.notify.signed')}` : ''}`;
  };
  const kinds = (s: AnySetup) =>
    notificationKindsOf(s.k)
      .map((k) => t(kindTitleKey(k)))
      .join(', ');

  const runTest = (s: AnySetup) => {
    setOutcome(null);
    test.mutate(testBody(channel, draftOf(channel, s, lang), s), {
      onSuccess: (reply) => setOutcome({ id: s.id, outcome: testOutcome(reply, null) }),
      onError: (err) => setOutcome({ id: s.id, outcome: testOutcome(null, err) }),
    });
  };

  const columns: DataColumn<AnySetup>[] = [
    {
      id: 'name',
      header: t('fleetAdmin.notify.name'),
      value: (s) => s.n,
      cell: (s) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {s.n}
        </Text>
      ),
    },
    {
      id: 'kinds',
      header: t('fleetAdmin.notify.kinds'),
      value: kinds,
      sortable: false,
      cell: (s) => (
        <Text size="sm" lineClamp={3}>
          {kinds(s)}
        </Text>
      ),
    },
    {
      id: 'on',
      header: t('fleetAdmin.notify.on'),
      value: (s) => s.on,
      text: (s) => (s.on === 1 ? t('fleetAdmin.notify.stateOn') : t('fleetAdmin.notify.stateOff')),
      cell: (s) => (
        <Badge color={s.on === 1 ? 'green' : 'gray'} variant="light">
          {s.on === 1 ? t('fleetAdmin.notify.stateOn') : t('fleetAdmin.notify.stateOff')}
        </Badge>
      ),
    },
    {
      id: 'detail',
      header: t(`fleetAdmin.notify.detail_${channel}`),
      value: detail,
      sortable: false,
      cell: (s) => (
        <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }} title={detail(s)}>
          {detail(s)}
        </Text>
      ),
    },
  ];

  const notThere = setups.error instanceof ApiError && setups.error.status === 404;

  return (
    <ListPanel
      testId={`notify-${channel}`}
      header={
        <>
          <Title order={4}>{t(CHANNEL_TITLE[channel])}</Title>
          <Text size="sm" c="dimmed">
            {t(INTRO[channel])}
          </Text>
        </>
      }
      notice={failure ? { ok: false, text: failure } : null}
      onNoticeClose={() => setFailure(null)}
      aboveTable={outcome && <TestResult outcome={outcome.outcome} />}
      list={setups}
      loading={<Loading />}
      loadErrorColor={notThere ? 'gray' : 'red'}
      loadError={notThere ? t('fleetAdmin.notify.unavailable') : t('fleetAdmin.notify.loadFailed')}
      columns={columns}
      getRowId={(s) => String(s.id)}
      urlPrefix={`n${channel}`}
      emptyText={channel === 'inapp' ? t('fleetAdmin.notify.emptyInapp') : t('fleetAdmin.notify.empty')}
      minWidth={640}
      data-testid={`notify-${channel}-table`}
      create={{
        label: t('fleetAdmin.notify.new'),
        testId: `notify-${channel}-new`,
        onClick: () => setDialog({ setup: null }),
      }}
      actions={{
        name: (s) => s.n,
        testIdPrefix: `notify-${channel}`,
        onEdit: (s) => setDialog({ setup: s }),
        onDelete: setAsking,
        before: (s) => (
          <Button
            size="xs"
            variant="subtle"
            aria-label={`${t('fleetAdmin.notify.test')}: ${s.n}`}
            loading={test.isPending && outcome === null}
            disabled={test.isPending}
            onClick={() => runTest(s)}
            data-testid={`notify-${channel}-test-${s.id}`}
          >
            {t('fleetAdmin.notify.test')}
          </Button>
        ),
      }}
      confirm={{
        opened: asking !== null,
        title: t('fleetAdmin.notify.deleteTitle'),
        text: asking ? t('fleetAdmin.notify.deleteText', { name: asking.n }) : '',
        busy: remove.isPending,
        onCancel: () => setAsking(null),
        onConfirm: () => {
          if (!asking) return;
          setFailure(null);
          remove.mutate(asking.id, {
            onSuccess: () => setAsking(null),
            onError: (err) => {
              setAsking(null);
              setFailure(
                t('fleetAdmin.notify.deleteFailed', {
                  reason: err instanceof ApiError ? err.reason : String(err),
                }),
              );
            },
          });
        },
      }}
    >
      {dialog && (
        <SetupDialog
          fid={fid}
          channel={channel}
          setup={dialog.setup}
          users={users}
          lang={lang}
          onClose={() => setDialog(null)}
        />
      )}
    </ListPanel>
  );
}
