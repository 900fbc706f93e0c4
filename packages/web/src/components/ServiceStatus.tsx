import { type StatusBadge, statusBadge } from '@fleetkeep/core';
import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Spec §4 display labels of one service (Due, In progress, Overdue, Rejected, Closed), for every screen. */
export const STATUS_LABEL: Record<StatusBadge, string> = {
  due: 'serviceStatus.due',
  overdue: 'serviceStatus.overdue',
  inProgress: 'serviceStatus.inProgress',
  closed: 'serviceStatus.closed',
  rejected: 'serviceStatus.rejected',
};

/** One colour per status wherever a service is shown; overdue is the only red one. */
export const STATUS_COLOR: Record<StatusBadge, string> = {
  due: 'blue',
  overdue: 'red',
  inProgress: 'orange',
  closed: 'teal',
  rejected: 'gray',
};

/** The status of a service (from its flags) as a coloured badge; never truncated by a narrow column. */
export function ServiceStatusBadge({ f, size }: { f: number; size?: BadgeProps['size'] }) {
  const { t } = useTranslation();
  const key = statusBadge(f);
  return (
    <Badge
      variant="light"
      color={STATUS_COLOR[key]}
      size={size}
      radius="sm"
      style={{ minWidth: 'max-content', overflow: 'visible' }}
      data-status={key}
    >
      {t(STATUS_LABEL[key])}
    </Badge>
  );
}
