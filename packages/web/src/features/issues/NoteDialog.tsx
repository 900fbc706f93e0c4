import { ISSUE_NOTE_MAX, issueCloseBody, issueResolveBody } from '@fleetkeep/core';
import { Modal, Stack, Textarea } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useIssueAction } from './api.ts';

type Field = 'note';
const fieldOf = (path: readonly string[]): Field | null => (path[0] === 'note' ? 'note' : null);

/**
 * Resolving an issue (an optional note of what was done) or closing it as not a defect (the note is
 * required: why it is not one); core contracts/issues.ts `issueResolveBody`, `issueCloseBody`.
 */
export function NoteDialog({
  fid,
  issueId,
  action,
  onClose,
}: {
  fid: number;
  issueId: number;
  action: 'resolve' | 'close';
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const act = useIssueAction(fid, issueId);
  const { draft, errors, failure, edit, validate, showRefusal } = useEditorForm<{ note: string }, Field>({
    initial: () => ({ note: '' }),
    schema: action === 'close' ? issueCloseBody : issueResolveBody,
    body: (d) => ({ note: d.note }),
    fieldOf,
    text: (problem, _field, limit) =>
      problem === 'tooLong' ? t('issues.tooLong', { max: limit }) : t('issues.noteRequired'),
    generic: t('common.error'),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    act.mutate({ action, note: draft.note.trim() }, { onSuccess: onClose, onError: showRefusal });
  };
  return (
    <Modal
      opened
      onClose={() => !act.isPending && onClose()}
      title={action === 'close' ? t('issues.closeTitle') : t('issues.resolveTitle')}
      centered
    >
      <Stack component="form" onSubmit={submit} gap="sm" data-testid="issue-note-dialog">
        <Textarea
          label={action === 'close' ? t('issues.closeNote') : t('issues.resolveNote')}
          withAsterisk={action === 'close'}
          data-autofocus
          autosize
          minRows={3}
          maxLength={ISSUE_NOTE_MAX}
          value={draft.note}
          onChange={(e) => edit({ note: e.currentTarget.value }, 'note')}
          error={errors.note || undefined}
          data-testid="issue-note"
        />
        <FormActions
          failure={failure}
          onCancel={onClose}
          busy={act.isPending}
          submitLabel={action === 'close' ? t('issues.close') : t('issues.resolve')}
          testId="issue-note-submit"
        />
      </Stack>
    </Modal>
  );
}
