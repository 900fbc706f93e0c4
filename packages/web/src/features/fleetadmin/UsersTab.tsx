import type { FleetMemberWire } from '@fleetkeep/core';
import {
  Alert,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/Loading.tsx';
import { ApiError } from '../../lib/api.ts';
import { serverIssues } from '../../lib/refusal.ts';
import { useLeaveWarning } from '../../lib/useLeaveWarning.tsx';
import { useFleetUsers, useSaveFleetUsers } from './api.ts';
import { DriverPreset } from './DriverPreset.tsx';
import { ACL_GROUPS, implied, toggle } from './rules.ts';

/** One user's rights, the spec §6 permission editor: groups of boxes, dependencies applied by rules.ts. */
function AclEditor({
  acl,
  disabled,
  onChange,
  testId,
}: {
  acl: number;
  disabled: boolean;
  onChange: (acl: number) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm" verticalSpacing="xs">
      {ACL_GROUPS.map((group) => (
        <Stack key={group.key} gap={4}>
          <Text size="sm" fw={600}>
            {t(`fleetAdmin.group_${group.key}`)}
          </Text>
          {group.boxes.map((box) => {
            const needed = implied(acl, box.bit);
            return (
              <Checkbox
                key={box.key}
                size="sm"
                label={t(`fleetAdmin.right_${box.key}`)}
                checked={(acl & box.bit) !== 0}
                disabled={disabled || needed}
                title={needed ? t('fleetAdmin.rightImplied') : undefined}
                onChange={(e) => onChange(toggle(acl, box.bit, e.currentTarget.checked))}
                data-testid={`${testId}-${group.key}-${box.key}`}
              />
            );
          })}
          {group.key === 'services' && (
            <Text size="xs" c="dimmed">
              {t('fleetAdmin.servicesIncludeFuel')}
            </Text>
          )}
        </Stack>
      ))}
    </SimpleGrid>
  );
}

/** Users tab (spec §7 "Fleet" access list): members with their rights; add, remove, save the whole list. */
export function UsersTab({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const query = useFleetUsers(fid, true);
  const save = useSaveFleetUsers(fid);
  const [members, setMembers] = useState<FleetMemberWire[] | null>(null);
  const [rowErrors, setRowErrors] = useState<Record<number, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [dirty, setDirty] = useState(false);
  const leaveWarning = useLeaveWarning(dirty, { tabParam: 'tab' });

  // The list as read, until the admin edits it; a save reloads it.
  useEffect(() => {
    if (query.data && !dirty) setMembers(query.data.users);
  }, [query.data, dirty]);

  if (query.isPending || members === null) return <Loading />;
  if (query.isError) return <Alert color="red">{t('common.error')}</Alert>;

  const busy = save.isPending;
  const memberIds = new Set(members.map((m) => m.id));
  const candidates = query.data.candidates.filter((c) => !memberIds.has(c.id));
  const edit = (next: FleetMemberWire[]) => {
    setMembers(next);
    setDirty(true);
    setSaved(false);
  };

  const submit = async () => {
    setFailure(null);
    setRowErrors({});
    try {
      await save.mutateAsync(members.map((m) => ({ id: m.id, acl: m.acl, ao: m.ao })));
      setDirty(false);
      setSaved(true);
    } catch (err) {
      if (err instanceof ApiError && err.code === 4) {
        const byRow: Record<number, string> = {};
        const rest: string[] = [];
        for (const issue of serverIssues(err.details, 'users')) {
          if (issue.row !== null && byRow[issue.row] === undefined) byRow[issue.row] = issue.message;
          else if (issue.row === null) rest.push(issue.message);
        }
        setRowErrors(byRow);
        setFailure(rest[0] ?? (Object.keys(byRow).length === 0 ? err.reason : null));
      } else {
        setFailure(err instanceof ApiError ? err.reason : t('common.error'));
      }
    }
  };

  return (
    <Stack>
      {leaveWarning}
      {members.length === 0 && <Text c="dimmed">{t('fleetAdmin.noUsers')}</Text>}
      {members.map((m, index) => (
        <Paper key={m.id} withBorder p="sm" data-testid={`fleet-user-${m.login}`}>
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {m.nm}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {m.login}
                </Text>
              </div>
              <CloseButton
                aria-label={t('fleetAdmin.removeUser')}
                title={t('fleetAdmin.removeUser')}
                disabled={busy}
                onClick={() => edit(members.filter((x) => x.id !== m.id))}
                data-testid={`fleet-user-${m.login}-remove`}
              />
            </Group>
            <AclEditor
              acl={m.acl}
              disabled={busy}
              testId={`acl-${m.login}`}
              onChange={(acl) => edit(members.map((x) => (x.id === m.id ? { ...x, acl } : x)))}
            />
            <DriverPreset
              member={m}
              disabled={busy}
              onChange={(next) => edit(members.map((x) => (x.id === m.id ? next : x)))}
            />
            {rowErrors[index] && (
              <Text size="sm" c="red" role="alert" data-testid={`fleet-user-${m.login}-error`}>
                {rowErrors[index]}
              </Text>
            )}
          </Stack>
        </Paper>
      ))}
      {candidates.length > 0 && (
        <Select
          maw={400}
          placeholder={t('fleetAdmin.addUser')}
          aria-label={t('fleetAdmin.addUser')}
          data={candidates.map((c) => ({ value: String(c.id), label: `${c.nm} (${c.login})` }))}
          value={null}
          searchable
          disabled={busy}
          onChange={(v) => {
            const c = candidates.find((x) => String(x.id) === v);
            if (c) edit([...members, { ...c, acl: 0, ao: 0 }]);
          }}
          data-testid="fleet-user-add"
        />
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <Group gap="sm">
        <Button onClick={() => void submit()} loading={busy} disabled={!dirty} data-testid="fleet-users-save">
          {t('common.save')}
        </Button>
        {saved && !dirty && (
          <Text size="sm" c="green" data-testid="fleet-users-saved">
            {t('fleetAdmin.saved')}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
