import { inspectionSubmitBody, needsAcknowledgement } from '@fleetkeep/core';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { Select } from '../../components/Select.tsx';
import { useTrailers, useUnits } from '../../lib/fleetData.ts';
import { naturalCollator } from '../../lib/naturalSort.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useInspection, useInspectionForms, useInspections, useSubmitInspection } from './api.ts';
import { DefectList } from './DefectList.tsx';
import { ItemInput } from './ItemInput.tsx';
import {
  emptyDraft,
  emptyResult,
  fieldOfPath,
  type InspectionDraft,
  type InspectionField,
  missingOf,
  parseObject,
  type ResultDraft,
  submitBody,
} from './rules.ts';
import { SignaturePad } from './SignaturePad.tsx';
import { useFormName, useInspectionContext } from './shared.tsx';

/**
 * /inspections/new: "Start inspection" (docs/product.md "Inspections"), one column that works at
 * 375 px: the form and the unit, the last report of that unit with its certification to acknowledge,
 * the meter, each item, a note and the drawn signature; submitted as one request.
 */
export default function StartInspectionScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { fid, miles } = useInspectionContext();
  const forms = useInspectionForms(fid);
  const units = useUnits(fid);
  const trailers = useTrailers(fid);
  const submit = useSubmitInspection(fid ?? 0);
  const formName = useFormName();
  const [sent, setSent] = useState<ReturnType<typeof submitBody> | null>(null);
  const { draft, edit, errors, setErrors, failure, showRefusal } = useEditorForm<
    InspectionDraft,
    InspectionField
  >({
    initial: () => emptyDraft(null),
    fieldOf: (path) => fieldOfPath(path, sent),
    text: () => t('inspections.answerRequired'),
    leave: {},
    generic: t('inspections.submitFailed'),
  });
  const formId = draft.fm ?? forms.data?.[0]?.id ?? null;
  const form = forms.data?.find((f) => f.id === formId);
  const items = form?.items ?? [];
  const object = parseObject(draft.obj);
  const last = useInspections(object ? fid : null, { ot: object?.ot, oi: object?.oi, lim: 1 });
  const lastRow = last.data?.[0] ?? null;
  const ackNeeded = needsAcknowledgement(lastRow);
  const lastFull = useInspection(ackNeeded ? fid : null, lastRow?.id ?? null);

  const objectOptions = useMemo(
    () => [
      ...[...(units.data ?? [])]
        .sort((a, b) => naturalCollator.compare(a.nm, b.nm))
        .map((u) => ({ value: `u:${u.id}`, label: u.nm })),
      ...[...(trailers.data ?? [])]
        .sort((a, b) => naturalCollator.compare(a.n, b.n))
        .map((p) => ({ value: `t:${p.id}`, label: `${p.n} (${t('objects.kindTrailer')})` })),
    ],
    [units.data, trailers.data, t],
  );

  if (fid === null) return null;
  if (forms.isPending) return <Loading />;

  const setResult = (i: number, patch: Partial<ResultDraft>) =>
    edit({ res: { ...draft.res, [i]: { ...(draft.res[i] ?? emptyResult()), ...patch } } }, `item.${i}`);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const full = { ...draft, fm: formId };
    const missing = missingOf(full, items, ackNeeded);
    if (missing.length) {
      setErrors(
        Object.fromEntries(
          missing.map((f) => [
            f,
            f === 'sig'
              ? t('inspections.signatureRequired')
              : f === 'ack'
                ? t('inspections.ackRequired')
                : t('inspections.answerRequired'),
          ]),
        ),
      );
      document.querySelector(`[data-field="${missing[0]}"]`)?.scrollIntoView({ block: 'center' });
      return;
    }
    const body = submitBody(full, items, { miles, ackId: ackNeeded ? (lastRow?.id ?? null) : null });
    setSent(body);
    if (!inspectionSubmitBody.safeParse(body).success) {
      showRefusal(new Error('invalid'));
      return;
    }
    try {
      const saved = await submit.mutateAsync(body);
      navigate(`/inspections/${saved.id}`, { replace: true });
    } catch (err) {
      showRefusal(err);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack maw={640} gap="md">
        <Title order={1} size="h2">
          {t('inspections.start')}
        </Title>
        <Select
          label={t('inspections.form')}
          options={(forms.data ?? []).map((f) => ({ value: String(f.id), label: formName(f) }))}
          value={formId === null ? null : String(formId)}
          onChange={(v) => edit({ fm: v ? Number(v) : null, res: {} }, 'fm')}
          allowDeselect={false}
          size="md"
          data-field="fm"
        />
        <Select
          label={t('inspections.object')}
          options={objectOptions}
          value={draft.obj}
          onChange={(v) => edit({ obj: v, ack: false }, 'obj', 'ack')}
          error={errors.obj}
          size="md"
          data-field="obj"
          data-testid="inspection-object"
        />
        {ackNeeded && lastFull.data && (
          <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-yellow-light)" data-field="ack">
            <Stack gap="xs" data-testid="last-report">
              <Text fw={600}>{t('inspections.lastReport')}</Text>
              <DefectList inspection={lastFull.data} />
              <Checkbox
                size="md"
                label={t('inspections.acknowledge')}
                checked={draft.ack}
                onChange={(e) => edit({ ack: e.currentTarget.checked }, 'ack')}
                error={errors.ack}
                data-testid="acknowledge"
              />
            </Stack>
          </Paper>
        )}
        <Group grow>
          <NumberInput
            label={`${t('inspections.mileage')}, ${miles ? 'mi' : 'km'}`}
            value={draft.mi}
            min={0}
            size="md"
            onChange={(v) => edit({ mi: typeof v === 'number' ? v : '' })}
          />
          <NumberInput
            label={t('inspections.engineHours')}
            value={draft.eh}
            min={0}
            size="md"
            onChange={(v) => edit({ eh: typeof v === 'number' ? v : '' })}
          />
        </Group>
        {items.map((item, i) => (
          <div key={`${formId}-${i}`} data-field={`item.${i}`}>
            <ItemInput
              index={i}
              item={item}
              value={draft.res[i] ?? emptyResult()}
              onChange={(patch) => setResult(i, patch)}
              error={errors[`item.${i}`]}
            />
          </div>
        ))}
        <Textarea
          label={t('inspections.note')}
          value={draft.note}
          autosize
          minRows={2}
          onChange={(e) => edit({ note: e.currentTarget.value })}
        />
        <div data-field="sig">
          <SignaturePad
            label={t('inspections.signHere')}
            onChange={(sig) => edit({ sig }, 'sig')}
            error={errors.sig}
            testId="signature-pad"
          />
        </div>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth loading={submit.isPending} data-testid="submit-inspection">
          {t('inspections.submit')}
        </Button>
      </Stack>
    </form>
  );
}
