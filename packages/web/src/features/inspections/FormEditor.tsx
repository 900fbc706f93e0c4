import {
  DEFECT_SEVERITIES,
  INSPECTION_ITEM_KINDS,
  type InspectionFormWire,
  type InspectionItemWire,
  inspectionFormBody,
} from '@fleetkeep/core';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  TextInput,
} from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useSaveForm } from './api.ts';

interface FormDraft {
  n: string;
  items: InspectionItemWire[];
}
type FormField = 'n' | 'items' | `items.${number}`;

const newItem = (): InspectionItemWire => ({ k: 'pf', l: '', key: null, sev: 'major', req: true });

/**
 * The forms editor (inspection.manage): a name and ordered items, each a kind, a label, the severity a
 * fail carries (pass/fail) or "required" (other kinds). `source` is the form edited, or the one copied
 * (`copy`: the built-in DVIR's labels in the reader's language become the new form's own).
 */
export function FormEditor({
  fid,
  source,
  copy,
  onClose,
}: {
  fid: number;
  source: InspectionFormWire | null;
  copy: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveForm(fid);
  const start = (): FormDraft =>
    source
      ? {
          n: copy
            ? `${source.bi ? t('inspections.dvir.name') : source.n} (${t('inspections.copy')})`
            : source.n,
          items: source.items.map((i) => ({ ...i, l: i.key ? t(i.key) : i.l, key: null })),
        }
      : { n: '', items: [newItem()] };
  const { draft, edit, errors, failure, validate, showRefusal } = useEditorForm<FormDraft, FormField>({
    initial: start,
    schema: inspectionFormBody,
    body: (d) => d,
    fieldOf: (path) => {
      const [, name, row] = path;
      if (name === 'n') return 'n';
      if (name === 'items') return row === undefined ? 'items' : `items.${Number(row)}`;
      return null;
    },
    text: () => t('controls.required'),
    leave: false,
    generic: t('inspections.saveFailed'),
  });
  const setItem = (i: number, patch: Partial<InspectionItemWire>) =>
    edit({ items: draft.items.map((it, n) => (n === i ? { ...it, ...patch } : it)) }, `items.${i}`);
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    try {
      await save.mutateAsync({ id: source && !copy ? source.id : null, body: draft });
      onClose();
    } catch (err) {
      showRefusal(err);
    }
  };
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={source && !copy ? t('inspections.editForm') : t('inspections.newForm')}
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <TextInput
            label={t('inspections.formName')}
            value={draft.n}
            onChange={(e) => edit({ n: e.currentTarget.value }, 'n')}
            error={errors.n}
            data-testid="form-name"
          />
          {draft.items.map((item, i) => (
            <Paper key={i} withBorder p="xs">
              <Group align="flex-end" wrap="wrap" gap="xs">
                <NativeSelect
                  aria-label={t('inspections.itemLabel')}
                  value={item.k}
                  onChange={(e) => {
                    const k = e.currentTarget.value as InspectionItemWire['k'];
                    setItem(i, { k, sev: k === 'pf' ? 'major' : null, req: k === 'pf' });
                  }}
                  data={INSPECTION_ITEM_KINDS.map((k) => ({ value: k, label: t(`inspections.kinds.${k}`) }))}
                />
                <TextInput
                  style={{ flex: 1, minWidth: 160 }}
                  aria-label={t('inspections.itemLabel')}
                  placeholder={t('inspections.itemLabel')}
                  value={item.l}
                  onChange={(e) => setItem(i, { l: e.currentTarget.value })}
                  error={errors[`items.${i}`]}
                />
                {item.k === 'pf' ? (
                  <NativeSelect
                    aria-label={t('inspections.severityLabel')}
                    value={item.sev ?? 'major'}
                    onChange={(e) => setItem(i, { sev: e.currentTarget.value as InspectionItemWire['sev'] })}
                    data={DEFECT_SEVERITIES.map((s) => ({ value: s, label: t(`inspections.severity.${s}`) }))}
                  />
                ) : (
                  <Checkbox
                    label={t('inspections.required')}
                    checked={item.req}
                    onChange={(e) => setItem(i, { req: e.currentTarget.checked })}
                  />
                )}
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('inspections.removeItem')}
                  disabled={draft.items.length === 1}
                  onClick={() => edit({ items: draft.items.filter((_, n) => n !== i) }, 'items.')}
                >
                  ✕
                </ActionIcon>
              </Group>
            </Paper>
          ))}
          <Group>
            <Button variant="default" onClick={() => edit({ items: [...draft.items, newItem()] }, 'items')}>
              {t('inspections.addItem')}
            </Button>
          </Group>
          <FormActions failure={failure ?? errors.items ?? null} onCancel={onClose} busy={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
