import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../app/session.ts';
import { dayjsLocale } from '../i18n/index.ts';
import { api } from '../lib/api.ts';
import { formatDateTime, formatNumber } from '../lib/format.ts';
import { queryKeys } from '../lib/queryKeys.ts';
import type { ApiToken, TokenRight, TokenRights } from '../lib/types.ts';

const AREAS = ['intervals', 'services', 'archive'] as const;
const RIGHTS: TokenRight[] = ['none', 'view', 'manage'];
const AREA_LABEL = {
  intervals: 'menu.intervals',
  services: 'menu.services',
  archive: 'tokens.archive',
} as const;

function useTokens() {
  return useQuery({
    queryKey: queryKeys.tokens(),
    queryFn: async ({ signal }) => (await api<{ tokens: ApiToken[] }>('/api/user/tokens', { signal })).tokens,
  });
}

function CreateToken({ onCreated }: { onCreated: (value: string) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [description, setDescription] = useState('');
  const [rights, setRights] = useState<TokenRights>({ intervals: 'view', services: 'view', archive: 'none' });
  const create = useMutation({
    mutationFn: () =>
      api<{ token: ApiToken; value: string }>('/api/user/tokens', {
        method: 'POST',
        body: { description: description.trim(), rights },
      }),
    onSuccess: (reply) => {
      onCreated(reply.value);
      setDescription('');
      void client.invalidateQueries({ queryKey: queryKeys.tokens() });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (description.trim()) create.mutate();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit}>
      <Stack>
        <Title order={2} size="h4">
          {t('tokens.create')}
        </Title>
        <TextInput
          label={t('tokens.description')}
          value={description}
          maxLength={128}
          required
          disabled={create.isPending}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Group grow wrap="wrap">
          {AREAS.map((area) => (
            <NativeSelect
              key={area}
              miw={140}
              label={t(AREA_LABEL[area])}
              value={rights[area]}
              disabled={create.isPending}
              onChange={(e) => {
                const right = e.currentTarget.value as TokenRight;
                setRights((r) => ({ ...r, [area]: right }));
              }}
              data={RIGHTS.map((r) => ({ value: r, label: t(`tokens.right.${r}`) }))}
            />
          ))}
        </Group>
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
  const client = useQueryClient();
  const tokens = useTokens();
  const [value, setValue] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<ApiToken | null>(null);
  const remove = useMutation({
    mutationFn: (id: number) => api(`/api/user/tokens/${id}`, { method: 'DELETE' }),
    onSettled: () => {
      setConfirm(null);
      void client.invalidateQueries({ queryKey: queryKeys.tokens() });
    },
  });
  if (session.status !== 'authenticated') return null;
  const { dateFormat, timeFormat } = session.auth.model.s;
  const when = (time: number | null) =>
    time === null ? t('tokens.never') : formatDateTime(time, dateFormat, timeFormat, dayjsLocale());
  const rightsText = (r: TokenRights) =>
    AREAS.map((a) => `${t(AREA_LABEL[a])}: ${t(`tokens.right.${r[a]}`)}`).join(', ');

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
      {tokens.isPending ? null : tokens.data?.length ? (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover data-testid="tokens">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('tokens.description')}</Table.Th>
                <Table.Th>{t('tokens.created')}</Table.Th>
                <Table.Th>{t('tokens.lastUse')}</Table.Th>
                <Table.Th>{t('tokens.requests')}</Table.Th>
                <Table.Th>{t('tokens.rights')}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('common.delete')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>{token.description}</Table.Td>
                  <Table.Td data-testid="token-created">{when(token.created)}</Table.Td>
                  <Table.Td>{when(token.last_used)}</Table.Td>
                  <Table.Td>{formatNumber(token.requests)}</Table.Td>
                  <Table.Td>{rightsText(token.rights)}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      color="red"
                      variant="subtle"
                      aria-label={`${t('common.delete')}: ${token.description}`}
                      onClick={() => setConfirm(token)}
                    >
                      {t('common.delete')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text c="dimmed">{t('tokens.empty')}</Text>
      )}
      {tokens.data && tokens.data.length > 0 && (
        <Text size="sm" c="dimmed">
          {t('tokens.count', { count: tokens.data.length })}
        </Text>
      )}
      <Modal
        opened={confirm !== null}
        onClose={() => setConfirm(null)}
        title={t('tokens.deleteTitle')}
        centered
      >
        <Text mb="md">{t('tokens.deleteConfirm', { name: confirm?.description ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirm(null)}>
            {t('common.cancel')}
          </Button>
          <Button color="red" loading={remove.isPending} onClick={() => confirm && remove.mutate(confirm.id)}>
            {t('common.ok')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
