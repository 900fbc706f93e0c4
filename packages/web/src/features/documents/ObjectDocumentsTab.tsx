import { type DocumentOwnerType, routes } from '@fleetkeep/core';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { useCan } from '../../lib/useCan.ts';
import { useDocuments } from './api.ts';
import { DocumentDialog } from './DocumentDialog.tsx';
import { DocumentsTable } from './DocumentsTable.tsx';
import { useDocumentFormat } from './format.ts';

/** The "Documents" tab of a unit's, trailer's or driver's page: its documents and "New document". */
export function ObjectDocumentsTab({ type, id }: { type: DocumentOwnerType; id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const fmt = useDocumentFormat();
  const canCreate = useCan(routes.documents.create);
  const list = useDocuments(fmt.fid, { owner_type: type, owner_id: String(id) });
  const [creating, setCreating] = useState(false);
  if (fmt.fid === null) return null;
  return (
    <Stack>
      {canCreate && (
        <Group justify="flex-end">
          <Button onClick={() => setCreating(true)} data-testid="object-doc-new">
            {t('documents.new')}
          </Button>
        </Group>
      )}
      {list.isError ? (
        <Alert color="red" role="alert">
          {t('common.error')}
        </Alert>
      ) : list.isPending ? (
        <Loading />
      ) : (
        <DocumentsTable documents={list.data} fmt={fmt} showOwner={false} testId="object-docs" />
      )}
      {creating && (
        <DocumentDialog
          owner={`${type}:${id}`}
          onClose={() => setCreating(false)}
          onSaved={(docId) => navigate(`/documents/${docId}`)}
        />
      )}
    </Stack>
  );
}
