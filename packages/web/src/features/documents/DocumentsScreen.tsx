import { DOCUMENT_EXPIRY_STATES, routes } from '@fleetkeep/core';
import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Select } from '../../components/Select.tsx';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { useDocuments } from './api.ts';
import { DocumentDialog } from './DocumentDialog.tsx';
import { DocumentsTable } from './DocumentsTable.tsx';
import { useDocumentFormat } from './format.ts';

const STATES = ['all', 'attention', ...DOCUMENT_EXPIRY_STATES] as const;
const OWNERS = ['all', 'u', 't', 'd'] as const;

/** `/documents`: the fleet's documents, soonest end first, filtered by state and owner in the URL. */
export default function DocumentsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fmt = useDocumentFormat();
  const [params, patchParams] = useUrlParams();
  const state = STATES.find((s) => s === params.get('state')) ?? 'all';
  const owner = OWNERS.find((o) => o === params.get('owner')) ?? 'all';
  const list = useDocuments(fmt.fid, {
    ...(state !== 'all' && { state }),
    ...(owner !== 'all' && { owner_type: owner }),
  });
  const canCreate = useCan(routes.documents.create);
  const [creating, setCreating] = useState(false);
  if (fmt.fid === null) return null;
  const setParam = (name: string, value: string | null) =>
    patchParams((p) => {
      if (!value || value === 'all') p.delete(name);
      else p.set(name, value);
      return p;
    });
  return (
    <Stack>
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1} size="h2">
          {t('documents.title')}
        </Title>
        {canCreate && (
          <Button onClick={() => setCreating(true)} data-testid="doc-new">
            {t('documents.new')}
          </Button>
        )}
      </Group>
      {list.isError ? (
        <Alert color="red" role="alert">
          {t('common.error')}
        </Alert>
      ) : (
        <DocumentsTable
          documents={list.data ?? []}
          fmt={fmt}
          testId="doc-list"
          activeFilters={(state === 'all' ? 0 : 1) + (owner === 'all' ? 0 : 1)}
          filters={
            <Group gap="sm" align="flex-end" wrap="wrap">
              <Select
                label={t('documents.field.state')}
                options={STATES.map((s) => ({ value: s, label: t(`documents.state.${s}`) }))}
                value={state}
                searchable={false}
                allowDeselect={false}
                w={200}
                data-testid="doc-state-filter"
                onChange={(v) => setParam('state', v)}
              />
              <Select
                label={t('documents.field.owner')}
                options={OWNERS.map((o) => ({
                  value: o,
                  label: o === 'all' ? t('documents.state.all') : t(`documents.owner.${o}`),
                }))}
                value={owner}
                searchable={false}
                allowDeselect={false}
                w={200}
                data-testid="doc-owner-filter"
                onChange={(v) => setParam('owner', v)}
              />
            </Group>
          }
        />
      )}
      {creating && (
        <DocumentDialog onClose={() => setCreating(false)} onSaved={(id) => navigate(`/documents/${id}`)} />
      )}
    </Stack>
  );
}
