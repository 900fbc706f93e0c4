import type { InspectionWire } from '@fleetkeep/core';
import { Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { InspectionImage, SeverityBadge, useInspectionContext, useItemLabel } from './shared.tsx';

/** An inspection's defects: item, severity, the issue priority, remark, and the certification. */
export function DefectList({
  inspection,
  action,
}: {
  inspection: InspectionWire;
  /** A control beside an uncertified defect (the mechanic's "Certify"). */
  action?: (defectId: number) => ReactNode;
}) {
  const { t } = useTranslation();
  const { fid, when } = useInspectionContext();
  const label = useItemLabel();
  return (
    <Stack gap="xs" data-testid="defects">
      {inspection.defects.map((d) => {
        const item = inspection.items[d.i];
        const result = inspection.res.find((r) => r.i === d.i);
        return (
          <Paper key={d.id} withBorder p="sm" radius="md" data-testid={`defect-${d.i}`}>
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Text fw={500}>{item ? label(item) : `#${d.i + 1}`}</Text>
                <SeverityBadge severity={d.sev} />
              </Group>
              <Text size="sm" c="dimmed">
                {t('inspections.priority', { p: t(`inspections.priorities.${d.pr}`) })}
              </Text>
              {result?.tx && <Text size="sm">{result.tx}</Text>}
              {result?.img && fid !== null && (
                <InspectionImage fid={fid} id={inspection.id} aid={result.img} alt={t('inspections.photo')} />
              )}
              {d.cert ? (
                <Group gap="sm" align="center">
                  <Text size="sm" c="blue" data-testid="certification">
                    {t(`inspections.cert.${d.cert}`)}: {d.cb?.nm ?? ''}, {d.ca === null ? '' : when(d.ca)}
                  </Text>
                  {d.cn && <Text size="sm">{d.cn}</Text>}
                  {d.csig && fid !== null && (
                    <InspectionImage
                      fid={fid}
                      id={inspection.id}
                      aid={d.csig}
                      alt={t('inspections.signature')}
                      h={40}
                    />
                  )}
                </Group>
              ) : (
                <Group justify="space-between">
                  <Text size="sm" c="orange">
                    {t('inspections.notCertified')}
                  </Text>
                  {action?.(d.id)}
                </Group>
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
