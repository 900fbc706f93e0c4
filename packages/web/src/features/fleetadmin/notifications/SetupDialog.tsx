import { type BotSetupWire, Limits, NotificationKind, type WebhookSetupWire } from '@fleetkeep/core';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NativeSelect,
  PasswordInput,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES } from '../../../i18n/languages.ts';
import type { Problem } from '../../../lib/coreResolver.ts';
import { kindTitleKey, NOTIFICATION_KINDS } from '../../../lib/header.ts';
import { useEditorForm } from '../../../lib/useEditorForm.tsx';
import { useSaveSetup, useTestSetup } from './api.ts';
import {
  type AnySetup,
  CHANNEL_TITLE,
  type Channel,
  type DraftField,
  draftOf,
  type SetupDraft,
  serverFieldOf,
  setupBody,
  setupSchema,
  testBody,
} from './rules.ts';
import { type TestOutcome, TestResult, testOutcome } from './TestResult.tsx';

const PROBLEM_KEY: Record<Problem, string> = {
  required: 'fleetAdmin.notify.required',
  tooLong: 'fleetAdmin.nameTooLong',
  tooShort: 'fleetAdmin.notify.secretTooShort',
  // The kinds mask below 1: none ticked.
  tooSmall: 'fleetAdmin.notify.required',
  tooBig: 'fleetAdmin.notify.invalid',
  tooMany: 'fleetAdmin.notify.invalid',
  invalid: 'fleetAdmin.notify.invalid',
};

/**
 * "New set-up" and "Edit set-up" of one channel (PRODUCT.md "Notifications"): name, on/off, kinds as checkboxes
 * with the spec §4 titles, and the channel's own fields; tokens and secrets are write-only (shown as
 * "set", replaced by typing a new one). "Send test" tests the form as it is, saved or not.
 */
/**
 * The kinds only the channels send (e-mail, bot, webhook; core ALL_CHANNEL_KINDS), in the dialog's order,
 * with their titles: a unit's critical fault code, an issue reported (high and critical at once), a
 * failed inspection, a work order assigned or completed, a document nearing its expiry, a tyre's tread
 * low, a part's stock low.
 */
const CHANNEL_KIND_TITLES: Readonly<Record<number, string>> = {
  [NotificationKind.criticalFault]: 'faultCodes.notifyKind',
  [NotificationKind.issueReported]: 'issues.notifyKind',
  [NotificationKind.inspectionFailed]: 'inspections.notify.kind',
  [NotificationKind.workOrderAssigned]: 'workOrders.notify.assignedKind',
  [NotificationKind.workOrderCompleted]: 'workOrders.notify.completedKind',
  [NotificationKind.documentExpiring]: 'documents.notify.kind',
  [NotificationKind.treadLow]: 'components.notify.kind',
  [NotificationKind.lowStock]: 'parts.notify.kind',
};
const CHANNEL_ONLY_KINDS = Object.keys(CHANNEL_KIND_TITLES).map(Number);

export function SetupDialog({
  fid,
  channel,
  setup,
  users,
  lang,
  onClose,
}: {
  fid: number;
  channel: Channel;
  setup: AnySetup | null;
  /** The fleet's members for the in-app users picker (empty when the caller may not list them). */
  users: { value: string; label: string }[];
  lang: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { draft, errors, failure, setFailure, edit, validate, showRefusal } = useEditorForm<
    SetupDraft,
    DraftField
  >({
    initial: () => draftOf(channel, setup, lang),
    schema: setupSchema(channel, setup),
    body: (d) => setupBody(channel, d),
    fieldOf: serverFieldOf,
    text: (problem) => t(PROBLEM_KEY[problem]),
    generic: t('common.error'),
  });
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const save = useSaveSetup(fid, channel);
  const test = useTestSetup(fid, channel);
  const busy = save.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    save.mutate(
      { id: setup?.id ?? null, body: setupBody(channel, draft) },
      { onSuccess: onClose, onError: showRefusal },
    );
  };

  const sendTest = () => {
    setOutcome(null);
    setFailure(null);
    test.mutate(testBody(channel, draft, setup), {
      onSuccess: (reply) => setOutcome(testOutcome(reply, null)),
      onError: (err) => setOutcome(testOutcome(null, err)),
    });
  };

  // The channels (not the in-app bell) also send the kinds beyond the services' (core ALL_CHANNEL_KINDS).
  const kinds = channel === 'inapp' ? NOTIFICATION_KINDS : [...NOTIFICATION_KINDS, ...CHANNEL_ONLY_KINDS];
  const bot = setup as BotSetupWire | null;
  const hook = setup as WebhookSetupWire | null;
  const langOptions = LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }));

  return (
    <Modal
      opened
      onClose={() => !busy && onClose()}
      title={`${t(CHANNEL_TITLE[channel])}: ${setup ? t('fleetAdmin.notify.editTitle') : t('fleetAdmin.notify.new')}`}
      centered
      size="lg"
      data-testid="notify-dialog"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('fleetAdmin.notify.name')}
            required
            data-autofocus
            maxLength={Limits.stringMax}
            value={draft.n}
            error={errors.n}
            disabled={busy}
            onChange={(e) => edit({ n: e.currentTarget.value }, 'n')}
            data-testid="notify-name"
          />
          <Switch
            label={t('fleetAdmin.notify.on')}
            checked={draft.on}
            disabled={busy}
            onChange={(e) => edit({ on: e.currentTarget.checked })}
            data-testid="notify-on"
          />
          <Checkbox.Group
            label={t('fleetAdmin.notify.kinds')}
            required
            error={errors.k}
            value={kinds.filter((k) => (draft.k & k) !== 0).map(String)}
            onChange={(values) => edit({ k: values.reduce((mask, v) => mask | Number(v), 0) }, 'k')}
            data-testid="notify-kinds"
          >
            <Stack gap={6} mt={4}>
              {kinds.map((k) => (
                <Checkbox
                  key={k}
                  value={String(k)}
                  label={t(CHANNEL_KIND_TITLES[k] ?? kindTitleKey(k))}
                  disabled={busy}
                />
              ))}
            </Stack>
          </Checkbox.Group>
          {channel === 'inapp' && (
            <MultiSelect
              label={t('fleetAdmin.notify.users')}
              description={t('fleetAdmin.notify.usersHint')}
              placeholder={draft.users.length === 0 ? t('fleetAdmin.notify.allMembers') : undefined}
              data={[
                ...users,
                ...draft.users
                  .filter((id) => !users.some((u) => u.value === String(id)))
                  .map((id) => ({ value: String(id), label: `#${id}` })),
              ]}
              value={draft.users.map(String)}
              searchable
              clearable
              disabled={busy}
              error={errors.users}
              onChange={(values) => edit({ users: values.map(Number) }, 'users')}
              comboboxProps={{ withinPortal: true }}
              data-testid="notify-users"
            />
          )}
          {(channel === 'mail' || channel === 'bot' || channel === 'webhook') && (
            <NativeSelect
              label={t('fleetAdmin.notify.language')}
              data={langOptions}
              value={draft.lang}
              disabled={busy}
              onChange={(e) => edit({ lang: e.currentTarget.value })}
              data-testid="notify-lang"
            />
          )}
          {channel === 'mail' && (
            <Textarea
              label={t('fleetAdmin.notify.recipients')}
              description={t('fleetAdmin.notify.listHint')}
              required
              autosize
              minRows={2}
              value={draft.recipients}
              error={errors.recipients}
              disabled={busy}
              onChange={(e) => edit({ recipients: e.currentTarget.value }, 'recipients')}
              data-testid="notify-recipients"
            />
          )}
          {(channel === 'bot' || channel === 'webhook') && (
            <TextInput
              label={channel === 'bot' ? t('fleetAdmin.notify.baseUrl') : t('fleetAdmin.notify.url')}
              required
              type="url"
              value={draft.url}
              error={errors.url}
              disabled={busy}
              onChange={(e) => edit({ url: e.currentTarget.value }, 'url')}
              data-testid="notify-url"
            />
          )}
          {channel === 'bot' && (
            <>
              <PasswordInput
                label={t('fleetAdmin.notify.token')}
                required={bot?.token_set !== 1}
                description={
                  bot?.token_set === 1
                    ? t('fleetAdmin.notify.secretSet', { tail: bot.token_tail })
                    : undefined
                }
                autoComplete="off"
                value={draft.token}
                error={errors.token}
                disabled={busy}
                onChange={(e) => edit({ token: e.currentTarget.value }, 'token')}
                data-testid="notify-token"
              />
              <Textarea
                label={t('fleetAdmin.notify.chats')}
                description={t('fleetAdmin.notify.listHint')}
                required
                autosize
                minRows={2}
                value={draft.chats}
                error={errors.chats}
                disabled={busy}
                onChange={(e) => edit({ chats: e.currentTarget.value }, 'chats')}
                data-testid="notify-chats"
              />
            </>
          )}
          {channel === 'webhook' && (
            <>
              <PasswordInput
                label={t('fleetAdmin.notify.secret')}
                description={
                  hook?.secret_set === 1
                    ? t('fleetAdmin.notify.secretSet', { tail: hook.secret_tail })
                    : t('fleetAdmin.notify.secretHint')
                }
                autoComplete="off"
                value={draft.secret}
                error={errors.secret}
                disabled={busy || draft.removeSecret}
                onChange={(e) => edit({ secret: e.currentTarget.value }, 'secret')}
                data-testid="notify-secret"
              />
              {hook?.secret_set === 1 && (
                <Checkbox
                  label={t('fleetAdmin.notify.removeSecret')}
                  checked={draft.removeSecret}
                  disabled={busy}
                  onChange={(e) => edit({ removeSecret: e.currentTarget.checked, secret: '' }, 'secret')}
                />
              )}
            </>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          {outcome && <TestResult outcome={outcome} />}
          <Group justify="space-between">
            <Button
              variant="light"
              onClick={sendTest}
              loading={test.isPending}
              disabled={busy || (draft.k & 31) === 0}
              data-testid="notify-test"
            >
              {t('fleetAdmin.notify.test')}
            </Button>
            <Group gap="xs">
              <Button variant="default" onClick={onClose} disabled={busy}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={busy} data-testid="notify-save">
                {t('common.save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
