import { CERTIFICATIONS, type Certification } from '@fleetkeep/core';
import { Modal, SegmentedControl, Stack, Textarea } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useUpdateInspection } from './api.ts';
import { SignaturePad } from './SignaturePad.tsx';

interface CertDraft {
  c: Certification;
  n: string;
  sig: string | null;
}
type CertField = 'c' | 'n' | 'sig';

/** The mechanic certifies one defect: repaired or repair unnecessary, a note, a drawn signature. */
export function CertifyDialog({
  fid,
  inspectionId,
  defectId,
  onClose,
}: {
  fid: number;
  inspectionId: number;
  defectId: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateInspection(fid);
  const [key, setKey] = useState(0);
  const { draft, edit, errors, setErrors, failure, showRefusal, accept } = useEditorForm<
    CertDraft,
    CertField
  >({
    initial: () => ({ c: 'repaired', n: '', sig: null }),
    fieldOf: (path) => (path.includes('sig') ? 'sig' : path.includes('n') ? 'n' : null),
    text: () => t('inspections.certifyFailed'),
    leave: false,
    generic: t('inspections.certifyFailed'),
  });
  const close = () => {
    accept({ c: 'repaired', n: '', sig: null });
    setKey((k) => k + 1);
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.sig || defectId === null) {
      setErrors({ sig: t('inspections.signatureRequired') });
      return;
    }
    try {
      await update.mutateAsync({
        id: inspectionId,
        body: {
          cert: [{ id: defectId, c: draft.c, ...(draft.n.trim() && { n: draft.n.trim() }), sig: draft.sig }],
        },
      });
      close();
    } catch (err) {
      showRefusal(err);
    }
  };
  return (
    <Modal opened={defectId !== null} onClose={close} title={t('inspections.certify')} centered>
      <form onSubmit={onSubmit} noValidate>
        <Stack key={key}>
          <SegmentedControl
            fullWidth
            size="md"
            value={draft.c}
            onChange={(v) => edit({ c: v as Certification })}
            data={CERTIFICATIONS.map((c) => ({ value: c, label: t(`inspections.cert.${c}`) }))}
            data-testid="certification-choice"
          />
          <Textarea
            label={t('inspections.note')}
            value={draft.n}
            autosize
            minRows={2}
            onChange={(e) => edit({ n: e.currentTarget.value }, 'n')}
            error={errors.n}
          />
          <SignaturePad
            label={t('inspections.signHere')}
            onChange={(sig) => edit({ sig }, 'sig')}
            error={errors.sig}
            testId="certify-signature"
          />
          <FormActions
            failure={failure}
            onCancel={close}
            busy={update.isPending}
            submitLabel={t('inspections.certify')}
            testId="certify-submit"
          />
        </Stack>
      </form>
    </Modal>
  );
}
