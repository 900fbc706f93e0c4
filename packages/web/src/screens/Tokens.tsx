import {
  formatDateTime,
  formatNumber,
  TOKEN_DESCRIPTION_MAX,
  type TokenRight,
  type TokenRights,
  type UserTokenWire,
  userTokenRight,
  userTokenRights,
} from '@fleetkeep/core';
import { Alert, Button, Code, CopyButton, Group, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { type DataColumn, DataTable } from '../components/DataTable/DataTable.tsx';
import { RequiredInput } from '../components/RequiredInput.tsx';
import { ButtonGroup } from '../components/Toggles.tsx';
import { dayjsLocale } from '../i18n/index.ts';
import { client } from '../lib/client.ts';
import { queryKeys } from '../lib/queryKeys.ts';
import { useSession } from '../lib/session.ts';

/** The areas and rights of a token, in the order of the contract (PRODUCT.md "API tokens"). */
const AREAS = Object.keys(userTokenRights.shape) as (keyof TokenRights)[];
const RIGHTS: readonly TokenRight[] = userTokenRight.options;
const AREA_LABEL = {
  intervals: 'menu.intervals',
  services: 'menu.services',
  archive: 'tokens.archive',
} as const satisfies Record<keyof TokenRights, string>;

function useTokens() {
  return useQuery({
    queryKey: queryKeys.tokens(),
    queryFn: async ({ signal }) => (await client.user.tokens({ signal })).tokens,
  });
}

function CreateToken({ onCreated }: { onCreated: (value: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const [rights, setRights] = useState<TokenRights>({ intervals: 'view', services: 'view', archive: 'none' });
  const create = useMutation({
    mutationFn: () => client.user.tokenCreate({ description: description.trim(), rights }),
    onSuccess: (reply) => {
      onCreated(reply.value);
      setDescription('');
      setTouched(false);
      void queryClient.invalidateQueries({ queryKey: queryKeys.tokens() });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (description.trim()) create.mutate();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit}>
      <Stack>
        <Title order={2} size="h4">
          {t('tokens.create')}
        </Title>
        <RequiredInput
          label={t('tokens.description')}
          value={description}
          maxLength={TOKEN_DESCRIPTION_MAX}
          touched={touched}
          onBlur={() => setTouched(true)}
          disabled={create.isPending}
          onChange={setDescription}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {AREAS.map((area) => (
            <ButtonGroup
              key={area}
              label={t(AREA_LABEL[area])}
              value={rights[area]}
              disabled={create.isPending}
              onChange={(right) => setRights((r) => ({ ...r, [area]: right as TokenRight }))}
              items={RIGHTS.map((r) => ({ v: r, l: t(`tokens.right.${r}`) }))}
            />
          ))}
        </SimpleGrid>
        {create.isError && (
          <Alert color="red" role="alert">
            {t('tokens.failed')}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={create.isPending}>
            {t('tokens.create')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Spec §2 /tokens: the user's personal API tokens; a new token's value is shown once. */
export default function TokensScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const queryClient = useQueryClient();
  const tokens = useTokens();
  const [value, setValue] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<UserTokenWire | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => client.user.tokenRemove(id),
    onSettled: () => {
      setConfirm(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.tokens() });
    },
  });
  const settings = session.status === 'authenticated' ? session.auth.model.s : null;
  const columns = useMemo<DataColumn<UserTokenWire>[]>(() => {
    const when = (time: number | null) =>
      time === null || !settings
        ? t('tokens.never')
        : formatDateTime(time, settings.dateFormat, settings.timeFormat, dayjsLocale());
    const rightsText = (r: TokenRights) =>
      AREAS.map((a) => `${t(AREA_LABEL[a])}: ${t(`tokens.right.${r[a]}`)}`).join(', ');
    return [
      { id: 'description', header: t('tokens.description'), value: (tk) => tk.description },
      {
        id: 'created',
        header: t('tokens.created'),
        value: (tk) => tk.created,
        text: (tk) => when(tk.created),
        cell: (tk) => <span data-testid="token-created">{when(tk.created)}</span>,
      },
      {
        id: 'lastUse',
        header: t('tokens.lastUse'),
        value: (tk) => tk.last_used,
        text: (tk) => when(tk.last_used),
      },
      {
        id: 'requests',
        header: t('tokens.requests'),
        value: (tk) => tk.requests,
        text: (tk) => formatNumber(tk.requests),
      },
      {
        id: 'rights',
        header: t('tokens.rights'),
        value: (tk) => rightsText(tk.rights),
        sortable: false,
      },
      {
        id: 'delete',
        header: t('common.delete'),
        hiddenHeader: true,
        value: () => null,
        sortable: false,
        searchable: false,
        exported: false,
        cell: (tk) => (
          <Button
            size="xs"
            color="red"
            variant="subtle"
            aria-label={`${t('common.delete')}: ${tk.description}`}
            onClick={() => setConfirm(tk)}
          >
            {t('common.delete')}
          </Button>
        ),
      },
    ];
  }, [t, settings]);
  if (session.status !== 'authenticated') return null;

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('menu.tokens')}
      </Title>
      <CreateToken onCreated={setValue} />
      {value && (
        <Alert color="blue" title={t('tokens.valueOnce')} withCloseButton onClose={() => setValue(null)}>
          <Group gap="sm" align="center">
            <Code data-testid="token-value" style={{ wordBreak: 'break-all', maxWidth: '100%' }}>
              {value}
            </Code>
            <CopyButton value={value}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? t('common.copied') : t('common.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
      {tokens.isPending ? null : (
        <DataTable
          data={tokens.data ?? []}
          columns={columns}
          getRowId={(token) => String(token.id)}
          csvName="tokens"
          emptyText={t('tokens.empty')}
          minWidth={720}
          data-testid="tokens"
        />
      )}
      <ConfirmDialog
        opened={confirm !== null}
        title={t('tokens.deleteTitle')}
        text={t('tokens.deleteConfirm', { name: confirm?.description ?? '' })}
        busy={remove.isPending}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && remove.mutate(confirm.id)}
      />
    </Stack>
  );
}
