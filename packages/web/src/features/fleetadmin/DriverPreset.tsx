import { ACL_DRIVER, type FleetMemberWire } from '@fleetkeep/core';
import { Button, Checkbox, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The access list's driver preset (docs/product.md "Vehicle assignments"): the rights of core
 * `ACL_DRIVER` (report issues, submit inspections, add fuel fillings) and "assigned units only", which
 * limits the member to the units assigned to them. The box alone changes the limit, not the rights.
 */
export function DriverPreset({
  member,
  disabled,
  onChange,
}: {
  member: FleetMemberWire;
  disabled: boolean;
  onChange: (next: FleetMemberWire) => void;
}) {
  const { t } = useTranslation();
  const isPreset = member.acl === ACL_DRIVER && member.ao === 1;
  return (
    <Group gap="md" wrap="wrap">
      <Button
        size="xs"
        variant={isPreset ? 'filled' : 'light'}
        disabled={disabled || isPreset}
        onClick={() => onChange({ ...member, acl: ACL_DRIVER, ao: 1 })}
        data-testid={`fleet-user-${member.login}-driver`}
      >
        {t('assignments.presetDriver')}
      </Button>
      <Checkbox
        size="sm"
        label={t('assignments.assignedOnly')}
        description={t('assignments.assignedOnlyHint')}
        checked={member.ao === 1}
        disabled={disabled}
        onChange={(e) => onChange({ ...member, ao: e.currentTarget.checked ? 1 : 0 })}
        data-testid={`fleet-user-${member.login}-assigned-only`}
      />
    </Group>
  );
}
