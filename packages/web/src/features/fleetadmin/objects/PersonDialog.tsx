import { Limits, type PersonWire, personCreateBody } from '@fleetkeep/core';
import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/Toasts.tsx';
import { useEditorForm } from '../../../lib/useEditorForm.tsx';
import { useCreatePerson, useUpdatePerson } from './api.ts';
import { fieldAmong, objectProblemText } from './problems.ts';
import { EMPTY_PERSON_FORM, type PersonForm, personBodyOf } from './rules.ts';

const FIELDS = ['n', 'c', 'ds'] as const;

const TITLES = {
  drivers: {
    create: 'fleetAdmin.objects.newDriver',
    edit: 'fleetAdmin.objects.editDriver',
    created: 'fleetAdmin.objects.driverCreated',
  },
  trailers: {
    create: 'fleetAdmin.objects.newTrailer',
    edit: 'fleetAdmin.objects.editTrailer',
    created: 'fleetAdmin.objects.trailerCreated',
  },
} as const;

/** New driver or trailer of the fleet, or editing one (PRODUCT.md "Service objects and counters"; spec §3 name, code, description). */
export function PersonDialog({
  fid,
  kind,
  person,
  onClose,
}: {
  fid: number;
  kind: 'drivers' | 'trailers';
  person: Pick<PersonWire, 'id' | 'n' | 'c' | 'ds'> | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const create = useCreatePerson(fid, kind);
  const update = useUpdatePerson(fid, kind);
  const {
    draft: form,
    errors,
    failure: rest,
    edit,
    validate,
    showRefusal,
  } = useEditorForm<PersonForm, (typeof FIELDS)[number]>({
    initial: () => (person ? { n: person.n, c: person.c, ds: person.ds } : EMPTY_PERSON_FORM),
    // A driver's or trailer's edit sends the same fields under the same rules as a new one.
    schema: personCreateBody,
    body: personBodyOf,
    fieldOf: fieldAmong(FIELDS),
    text: objectProblemText(t),
    generic: t('objects.saveFailed'),
  });
  const busy = create.isPending || update.isPending;

  const change = (key: keyof PersonForm, value: string) => edit({ [key]: value }, key);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!validate()) return;
    const body = personBodyOf(form);
    if (person) update.mutate({ id: person.id, body }, { onSuccess: onClose, onError: showRefusal });
    else
      create.mutate(body, {
        onSuccess: () => {
          toast(t(TITLES[kind].created, { name: body.n }));
          onClose();
        },
        onError: showRefusal,
      });
  };

  return (
    <Modal opened onClose={onClose} title={t(TITLES[kind][person ? 'edit' : 'create'])} centered>
      <Stack component="form" onSubmit={submit} gap="sm" data-testid="person-dialog">
        <TextInput
          label={t('objects.name')}
          withAsterisk
          data-autofocus
          autoComplete="off"
          value={form.n}
          maxLength={Limits.stringMax}
          error={errors.n || undefined}
          onChange={(e) => change('n', e.currentTarget.value)}
          data-testid="person-name"
        />
        <TextInput
          label={t('objects.code')}
          autoComplete="off"
          value={form.c}
          maxLength={Limits.stringMax}
          error={errors.c || undefined}
          onChange={(e) => change('c', e.currentTarget.value)}
          data-testid="person-code"
        />
        <Textarea
          label={t('objects.description')}
          autosize
          minRows={2}
          maxRows={6}
          value={form.ds}
          maxLength={Limits.descriptionMax}
          error={errors.ds || undefined}
          onChange={(e) => change('ds', e.currentTarget.value)}
          data-testid="person-description"
        />
        {rest && (
          <Alert color="red" role="alert">
            {rest}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="person-dialog-save">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
