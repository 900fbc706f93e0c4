import {
  Limits,
  MONTHDAY_LAST,
  REPORT_FORMATS,
  REPORT_GROUPS,
  REPORT_IDS_MAX,
  REPORT_MAIL_EVERY,
  REPORT_TYPES,
  type ReportFormat,
  type ReportGroup,
  type ReportMailEvery,
  type ReportMailWire,
  type ReportType,
} from '@fleetkeep/core';
import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MultiSelect } from '../../../components/Select.tsx';
import { LANGUAGE_NAMES, LANGUAGES } from '../../../i18n/languages.ts';
import type { Problem } from '../../../lib/coreResolver.ts';
import { useDrivers, useTrailers, useUnits } from '../../../lib/fleetData.ts';
import { naturalCollator } from '../../../lib/naturalSort.ts';
import { useEditorForm } from '../../../lib/useEditorForm.tsx';
import { useSaveReportMail } from './api.ts';
import {
  type DraftField,
  draftOf,
  hourText,
  mailBody,
  mailSchema,
  type ReportMailDraft,
  serverFieldOf,
  weekdayName,
} from './rules.ts';

const PROBLEM_KEY: Record<Problem, string> = {
  required: 'fleetAdmin.notify.required',
  tooLong: 'fleetAdmin.nameTooLong',
  tooShort: 'fleetAdmin.notify.invalid',
  tooSmall: 'fleetAdmin.notify.invalid',
  tooBig: 'fleetAdmin.notify.invalid',
  tooMany: 'fleetAdmin.notify.invalid',
  invalid: 'fleetAdmin.notify.invalid',
};
const KIND_LABEL = {
  u: 'objects.filterUnits',
  d: 'objects.filterDrivers',
  t: 'objects.filterTrailers',
} as const;
const ALL = 'all';

/**
 * "New report mail" and "Edit report mail" (core contracts/reportmails.ts): name,
 * on/off, recipients, the report (type, grouping, objects), the file format, the schedule (daily, weekly
 * on a weekday, monthly on a day or the last day, at an hour of the fleet's zone) with the period each
 * mail covers, and the language of the mail and its file.
 */
export function ReportMailDialog({
  fid,
  mail,
  lang,
  report,
  onClose,
}: {
  fid: number;
  mail: ReportMailWire | null;
  lang: string;
  /** The report the screen shows: a new mail starts with it. */
  report: ReportType;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<ReportMailDraft, DraftField>({
    initial: () => draftOf(mail, lang, report),
    schema: mailSchema(mail),
    body: mailBody,
    fieldOf: serverFieldOf,
    // Too many recipients names the most allowed.
    text: (problem, _field, limit) =>
      problem === 'tooMany' ? `${t(PROBLEM_KEY.tooMany)} (≤ ${limit})` : t(PROBLEM_KEY[problem]),
    generic: t('common.error'),
  });
  const save = useSaveReportMail(fid);
  const busy = save.isPending;

  const units = useUnits<{ id: number; nm: string }>(draft.ot === 'u' ? fid : null);
  const drivers = useDrivers<{ id: number; n: string }>(draft.ot === 'd' ? fid : null);
  const trailers = useTrailers<{ id: number; n: string }>(draft.ot === 't' ? fid : null);
  const objectOptions = useMemo(() => {
    const people = draft.ot === 'd' ? drivers.data : draft.ot === 't' ? trailers.data : undefined;
    const list =
      draft.ot === 'u'
        ? (units.data ?? []).map((u) => ({ value: String(u.id), label: u.nm }))
        : (people ?? []).map((p) => ({ value: String(p.id), label: p.n }));
    // Chosen objects no longer listed (left the fleet) stay visible by id.
    for (const id of draft.ids)
      if (!list.some((o) => o.value === String(id))) list.push({ value: String(id), label: `#${id}` });
    return list.sort((a, b) => naturalCollator.compare(a.label, b.label));
  }, [draft.ot, draft.ids, units.data, drivers.data, trailers.data]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    save.mutate(
      { id: mail?.id ?? null, body: mailBody(draft) },
      { onSuccess: onClose, onError: showRefusal },
    );
  };

  const uiLang = lang;
  const hours = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: hourText(h) }));
  const weekdays = Array.from({ length: 7 }, (_, i) => ({
    value: String(i + 1),
    label: weekdayName(i + 1, uiLang),
  }));
  const monthdays = [
    ...Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) })),
    { value: MONTHDAY_LAST, label: t('reportMails.monthdayLast') },
  ];

  return (
    <Modal
      opened
      onClose={() => !busy && onClose()}
      title={mail ? t('reportMails.edit') : t('reportMails.new')}
      centered
      size="lg"
      data-testid="reportmail-dialog"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('fleetAdmin.notify.name')}
            required
            data-autofocus
            maxLength={Limits.stringMax}
            value={draft.name}
            error={errors.name}
            disabled={busy}
            onChange={(e) => edit({ name: e.currentTarget.value }, 'name')}
            data-testid="reportmail-name"
          />
          <Switch
            label={t('reportMails.enabled')}
            checked={draft.enabled}
            disabled={busy}
            onChange={(e) => edit({ enabled: e.currentTarget.checked })}
            data-testid="reportmail-enabled"
          />
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
            data-testid="reportmail-recipients"
          />
          <NativeSelect
            label={t('reports.screen.type')}
            data={REPORT_TYPES.map((type) => ({ value: type, label: t(`reports.type.${type}`) }))}
            value={draft.report}
            disabled={busy}
            onChange={(e) => edit({ report: e.currentTarget.value as ReportType })}
            data-testid="reportmail-report"
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <NativeSelect
              label={t('reports.screen.grouping')}
              data={REPORT_GROUPS.map((g) => ({ value: g, label: t(`reports.screen.group_${g}`) }))}
              value={draft.group}
              disabled={busy}
              onChange={(e) => edit({ group: e.currentTarget.value as ReportGroup })}
              data-testid="reportmail-group"
            />
            <NativeSelect
              label={t('reports.screen.objectKind')}
              data={[
                { value: ALL, label: t('reports.screen.allObjects') },
                ...(['u', 'd', 't'] as const).map((k) => ({ value: k, label: t(KIND_LABEL[k]) })),
              ]}
              value={draft.ot ?? ALL}
              disabled={busy}
              onChange={(e) => {
                const v = e.currentTarget.value;
                edit({ ot: v === ALL ? null : (v as 'u' | 'd' | 't'), ids: [] }, 'ids');
              }}
              data-testid="reportmail-kind"
            />
          </SimpleGrid>
          {draft.ot !== null && (
            <MultiSelect
              label={t('reports.screen.objects')}
              placeholder={draft.ids.length === 0 ? t('reports.screen.objectsAll') : undefined}
              options={objectOptions}
              value={draft.ids.map(String)}
              maxValues={REPORT_IDS_MAX}
              clearable
              disabled={busy}
              error={errors.ids}
              onChange={(v) => edit({ ids: v.map(Number) }, 'ids')}
              comboboxProps={{ withinPortal: true }}
              data-testid="reportmail-objects"
            />
          )}
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('reportMails.format')}
            </Text>
            <SegmentedControl
              data={REPORT_FORMATS.map((f) => ({ value: f, label: f.toUpperCase() }))}
              value={draft.format}
              disabled={busy}
              onChange={(v) => edit({ format: v as ReportFormat })}
              aria-label={t('reportMails.format')}
              data-testid="reportmail-format"
            />
          </div>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <NativeSelect
              label={t('reportMails.every')}
              data={REPORT_MAIL_EVERY.map((e) => ({ value: e, label: t(`reportMails.every_${e}`) }))}
              value={draft.every}
              disabled={busy}
              onChange={(e) => edit({ every: e.currentTarget.value as ReportMailEvery })}
              data-testid="reportmail-every"
            />
            {draft.every === 'weekly' && (
              <NativeSelect
                label={t('reportMails.weekday')}
                data={weekdays}
                value={String(draft.weekday)}
                error={errors.weekday}
                disabled={busy}
                onChange={(e) => edit({ weekday: Number(e.currentTarget.value) }, 'weekday')}
                data-testid="reportmail-weekday"
              />
            )}
            {draft.every === 'monthly' && (
              <NativeSelect
                label={t('reportMails.monthday')}
                data={monthdays}
                value={draft.monthday}
                error={errors.monthday}
                disabled={busy}
                onChange={(e) => edit({ monthday: e.currentTarget.value }, 'monthday')}
                data-testid="reportmail-monthday"
              />
            )}
            <NativeSelect
              label={t('reportMails.hour')}
              data={hours}
              value={String(draft.hour)}
              error={errors.hour}
              disabled={busy}
              onChange={(e) => edit({ hour: Number(e.currentTarget.value) }, 'hour')}
              data-testid="reportmail-hour"
            />
          </SimpleGrid>
          <Text size="sm" c="dimmed" data-testid="reportmail-period">
            {t(`reportMails.period_${draft.every}`)}
          </Text>
          <NativeSelect
            label={t('fleetAdmin.notify.language')}
            data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
            value={draft.lang}
            disabled={busy}
            onChange={(e) => edit({ lang: e.currentTarget.value })}
            data-testid="reportmail-lang"
          />
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="reportmail-save">
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
