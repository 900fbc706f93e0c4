import {
  formatDate,
  formatDateTime,
  NotificationKind,
  SETTINGS_DATE_FORMATS,
  SETTINGS_TIME_FORMATS,
  type UserSettings,
} from '@fleetkeep/core';
import { Alert, Button, Checkbox, Fieldset, Group, NativeSelect, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LAYER_LABEL, resolveLayer } from '../features/map/layers.ts';
import { useMapLayers } from '../features/map/useMapLayers.ts';
import { dayjsLocale } from '../i18n/index.ts';
import { LANGUAGE_NAMES, LANGUAGES } from '../i18n/languages.ts';
import { saveSettings, useSession } from '../lib/session.ts';
import { useLeaveWarning } from '../lib/useLeaveWarning.tsx';
import { ChangePassword } from './ChangePassword.tsx';

/** The notification kinds of DESIGN §6, in their bit order. */
const KINDS = [
  ['upcoming', NotificationKind.upcoming],
  ['inProgress', NotificationKind.inProgress],
  ['overdue', NotificationKind.overdue],
  ['closed', NotificationKind.closed],
  ['rejected', NotificationKind.rejected],
] as const;

/** The settings the screen edits (spec §3 "User settings"), typed by the contract. */
type Form = Pick<UserSettings, 'lang' | 'dateFormat' | 'timeFormat' | 'layer'> & { enabled: number };

function formOf(s: UserSettings): Form {
  return {
    lang: s.lang,
    dateFormat: s.dateFormat,
    timeFormat: s.timeFormat,
    enabled: s.notification?.enabled ?? 31,
    layer: s.layer,
  };
}

function SettingsForm({ settings }: { settings: UserSettings }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState<Form>(() => formOf(settings));
  const [form, setForm] = useState<Form>(saved);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<'saved' | 'failed' | null>(null);
  const dirty = JSON.stringify(form) !== JSON.stringify(saved);
  const leaveWarning = useLeaveWarning(dirty && !busy);
  const sample = Math.floor(Date.now() / 1000);
  // Spec §2 "Map": the base layers available to this user; a saved layer no longer offered shows the fallback.
  const layers = useMapLayers();

  const change = (patch: Partial<Form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setResult(null);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const merged = await saveSettings({
        lang: form.lang,
        dateFormat: form.dateFormat,
        timeFormat: form.timeFormat,
        notification: { enabled: form.enabled },
        layer: form.layer,
      });
      const next = formOf(merged);
      setSaved(next);
      setForm(next);
      setResult('saved');
    } catch (err) {
      // Spec §8: a failed save is logged; the form keeps the user's values.
      console.warn("Settings wasn't saved", err);
      setResult('failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack maw={520}>
        <Title order={1} size="h2">
          {t('menu.settings')}
        </Title>
        <NativeSelect
          label={t('settings.language')}
          value={form.lang}
          disabled={busy}
          onChange={(e) => change({ lang: e.currentTarget.value as Form['lang'] })}
          data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
        />
        <NativeSelect
          label={t('settings.dateFormat')}
          value={form.dateFormat}
          disabled={busy}
          onChange={(e) => change({ dateFormat: e.currentTarget.value as Form['dateFormat'] })}
          data={SETTINGS_DATE_FORMATS.map((f) => ({
            value: f,
            label: `${f} (${formatDate(sample, f, dayjsLocale())})`,
          }))}
        />
        <NativeSelect
          label={t('settings.timeFormat')}
          value={form.timeFormat}
          disabled={busy}
          onChange={(e) => change({ timeFormat: e.currentTarget.value as Form['timeFormat'] })}
          data={SETTINGS_TIME_FORMATS.map((f) => ({
            value: f,
            label: `${f} (${formatDateTime(sample, '', f, dayjsLocale()).trim()})`,
          }))}
        />
        <Fieldset legend={t('settings.notifications')} disabled={busy}>
          <Stack gap="xs">
            {KINDS.map(([name, bit]) => (
              <Checkbox
                key={name}
                label={t(`status.${name}`)}
                checked={(form.enabled & bit) !== 0}
                onChange={(e) =>
                  change({ enabled: e.currentTarget.checked ? form.enabled | bit : form.enabled & ~bit })
                }
              />
            ))}
          </Stack>
        </Fieldset>
        <NativeSelect
          label={t('settings.mapLayer')}
          value={layers.pending ? form.layer : resolveLayer(form.layer, layers.available)}
          disabled={busy || layers.pending}
          onChange={(e) => change({ layer: e.currentTarget.value })}
          data={layers.available.map((l) => ({ value: l, label: t(LAYER_LABEL[l]) }))}
        />
        {result && (
          <Alert color={result === 'saved' ? 'green' : 'red'} role="status">
            {t(result === 'saved' ? 'settings.saved' : 'settings.failed')}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={busy} disabled={!dirty}>
            {t('common.save')}
          </Button>
          <Button variant="default" disabled={!dirty || busy} onClick={() => setForm(saved)}>
            {t('common.cancel')}
          </Button>
        </Group>
      </Stack>
      {leaveWarning}
    </form>
  );
}

/** Spec §2 /settings: language, date and time formats, notification kinds and map layer; the password. */
export default function SettingsScreen() {
  const session = useSession();
  if (session.status !== 'authenticated') return null;
  return (
    <Stack gap="xl">
      <SettingsForm settings={session.auth.model.s} />
      <ChangePassword />
    </Stack>
  );
}
