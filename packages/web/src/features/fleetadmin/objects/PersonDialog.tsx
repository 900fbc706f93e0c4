import { Limits, type PersonWire } from '@fleetkeep/core';
import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreatePerson, useUpdatePerson } from './api.ts';
import { problemTexts, serverProblems } from './problems.ts';
import { EMPTY_PERSON_FORM, type PersonForm, personBodyOf, personFormProblems } from './rules.ts';

const FIELDS = ['n', 'c', 'ds'] as const;

const TITLES = {
  drivers: { create: 'fleetAdmin.objects.newDriver', edit: 'fleetAdmin.objects.editDriver' },
  trailers: { create: 'fleetAdmin.objects.newTrailer', edit: 'fleetAdmin.objects.editTrailer' },
} as const;

/** New driver or trailer of the fleet, or editing one (issue 9 "Service objects"; spec §3 name, code, description). */
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
  const [form, setForm] = useState<PersonForm>(() =>
    person ? { n: person.n, c: person.c, ds: person.ds } : EMPTY_PERSON_FORM,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [rest, setRest] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  const change = (key: keyof PersonForm, value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };
  const fail = (err: unknown) => {
    const mapped = serverProblems(err, FIELDS, t);
    setErrors(mapped.fields);
    setRest(mapped.rest);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const local = problemTexts(personFormProblems(form), t);
    setErrors(local);
    setRest(null);
    if (Object.keys(local).length > 0) return;
    const body = personBodyOf(form);
    if (person) update.mutate({ id: person.id, body }, { onSuccess: onClose, onError: fail });
    else create.mutate(body, { onSuccess: onClose, onError: fail });
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
