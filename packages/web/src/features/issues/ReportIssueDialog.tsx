import {
  ISSUE_ATTACHMENT_BYTES_MAX,
  ISSUE_ATTACHMENTS_MAX,
  ISSUE_DESCRIPTION_MAX,
  ISSUE_PRIORITIES,
  ISSUE_TITLE_MAX,
  type IssuePriority,
  issueCreateBody,
} from '@fleetkeep/core';
import {
  Button,
  FileButton,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions.tsx';
import { Select } from '../../components/Select.tsx';
import { client } from '../../lib/client.ts';
import type { Problem } from '../../lib/coreResolver.ts';
import { useTrailers, useUnits } from '../../lib/fleetData.ts';
import { useEditorForm } from '../../lib/useEditorForm.tsx';
import { useInvalidateIssues, useReportIssue } from './api.ts';
import { draftBody, type IssueDraft, newDraft, photosProblem } from './rules.ts';

const FIELDS = ['object', 'title', 'description', 'priority'] as const;
type Field = (typeof FIELDS)[number];
const fieldOf = (path: readonly string[]): Field | null => {
  const name = path[0] === 'object_type' || path[0] === 'object_id' ? 'object' : path[0];
  return FIELDS.includes(name as Field) ? (name as Field) : null;
};

/**
 * "Report issue" (docs/product.md "Issues"): the unit or trailer (fixed on the object page), a title,
 * what is wrong, the priority, and photos, uploaded right after the report (the reporter may add photos
 * to their own open issue). The meter at the report is the unit's counters, taken by the server.
 */
export function ReportIssueDialog({
  fid,
  object,
  onClose,
  onReported,
}: {
  fid: number;
  /** `u12` / `t3`: the object page's object, not to be changed. */
  object?: string;
  onClose: () => void;
  onReported: (id: number) => void;
}) {
  const { t } = useTranslation();
  const report = useReportIssue(fid);
  const invalidate = useInvalidateIssues(fid);
  const units = useUnits(fid);
  const trailers = useTrailers(fid);
  const [photos, setPhotos] = useState<File[]>([]);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const text = (problem: Problem, field: Field, limit: number | null) => {
    if (field === 'object') return t('issues.objectRequired');
    if (problem === 'required') return t('issues.titleRequired');
    if (problem === 'tooLong') return t('issues.tooLong', { max: limit });
    return t('issues.invalid');
  };
  const { draft, errors, failure, setFailure, edit, validate, showRefusal } = useEditorForm<
    IssueDraft,
    Field
  >({
    initial: () => newDraft(object ?? ''),
    schema: issueCreateBody,
    body: draftBody,
    fieldOf,
    text,
    check: (d) => (d.object === '' ? { object: t('issues.objectRequired') } : {}),
    generic: t('common.error'),
  });

  const options = useMemo(
    () => [
      ...(units.data ?? []).map((u) => ({ value: `u${u.id}`, label: u.nm })),
      ...(trailers.data ?? []).map((p) => ({
        value: `t${p.id}`,
        label: `${p.n} (${t('objects.kindTrailer')})`,
      })),
    ],
    [units.data, trailers.data, t],
  );

  const choose = (files: File[]) => {
    const problem = photosProblem(files, ISSUE_ATTACHMENTS_MAX, ISSUE_ATTACHMENT_BYTES_MAX);
    setPhotoError(
      problem === 'type'
        ? t('issues.photosImages')
        : problem
          ? t('issues.photoCaps', {
              files: ISSUE_ATTACHMENTS_MAX,
              size: ISSUE_ATTACHMENT_BYTES_MAX / (1024 * 1024),
            })
          : null,
    );
    if (!problem) setPhotos(files);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    report.mutate(draftBody(draft), {
      onError: showRefusal,
      onSuccess: async (issue) => {
        if (photos.length === 0) return onReported(issue.id);
        setUploading(true);
        try {
          await client.issues.attachmentUpload.upload(fid, issue.id, photos, () => {}).promise;
          onReported(issue.id);
        } catch {
          // The issue stands; the photos can be added on its page.
          setFailure(t('issues.photosFailed'));
          onReported(issue.id);
        } finally {
          setUploading(false);
          await invalidate();
        }
      },
    });
  };

  const busy = report.isPending || uploading;
  return (
    <Modal opened onClose={() => !busy && onClose()} title={t('issues.report')} centered size="lg">
      <Stack component="form" onSubmit={submit} gap="sm" data-testid="issue-report-dialog">
        {object === undefined && (
          <Select
            label={t('issues.object')}
            withAsterisk
            options={options}
            value={draft.object || null}
            onChange={(v) => edit({ object: v ?? '' }, 'object')}
            searchable
            error={errors.object || undefined}
            data-testid="issue-object"
          />
        )}
        <TextInput
          label={t('issues.title')}
          withAsterisk
          data-autofocus
          maxLength={ISSUE_TITLE_MAX}
          value={draft.title}
          onChange={(e) => edit({ title: e.currentTarget.value }, 'title')}
          error={errors.title || undefined}
          data-testid="issue-title"
        />
        <Textarea
          label={t('issues.description')}
          autosize
          minRows={3}
          maxLength={ISSUE_DESCRIPTION_MAX}
          value={draft.description}
          onChange={(e) => edit({ description: e.currentTarget.value }, 'description')}
          error={errors.description || undefined}
          data-testid="issue-description"
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="issue-priority-label">
            {t('issues.priorityLabel')}
          </Text>
          <SegmentedControl
            aria-labelledby="issue-priority-label"
            fullWidth
            data={ISSUE_PRIORITIES.map((p) => ({ value: p, label: t(`issues.priority.${p}`) }))}
            value={draft.priority}
            onChange={(v) => edit({ priority: v as IssuePriority }, 'priority')}
            data-testid="issue-priority"
          />
        </Stack>
        <Group gap="sm" wrap="wrap">
          <FileButton multiple accept="image/*" onChange={choose}>
            {(props) => (
              <Button variant="default" {...props} data-testid="issue-photos">
                {t('issues.addPhotos')}
              </Button>
            )}
          </FileButton>
          <Text size="sm" c={photoError ? 'red' : 'dimmed'} data-testid="issue-photos-chosen">
            {photoError ?? (photos.length ? photos.map((f) => f.name).join(', ') : t('issues.noPhotos'))}
          </Text>
        </Group>
        <FormActions
          failure={failure}
          onCancel={onClose}
          busy={busy}
          submitLabel={t('issues.reportSubmit')}
          testId="issue-report-submit"
        />
      </Stack>
    </Modal>
  );
}
