import { countingBasis, formatFleetDateTime, formatMoney, formatNumber, formatWhole } from '@fleetkeep/core';
import { Alert, Anchor, Group, Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Loading } from '../../components/Loading.tsx';
import { dayjsLocale } from '../../i18n/index.ts';
import { kmToDisplay } from '../../lib/distance.ts';
import { consumptionLabel, fuelTotals, useUnitFuelFillings, volumeLabel } from '../../lib/fuel.ts';
import { useSession } from '../../lib/session.ts';
import { PeriodPicker } from './PeriodPicker.tsx';
import { type PeriodTabProps, usePeriodTab } from './useLabels.ts';

/**
 * The unit page's fuel fillings tab (spec §2 /unit/{unitId}; PRODUCT.md "Fuel fillings"): the unit's
 * fillings of the page's period, newest first, with the totals of volume and cost, each linking to its
 * editor ("Create fuel filling" is the page's own button, above the tabs). The fuel screens are reached by URL (features do
 * not import each other); the data comes from lib/fuel.ts, so live fuel events refresh it.
 */
export function FuelTab({ object, period, onPeriod }: PeriodTabProps) {
  const { t, i18n } = useTranslation();
  const { fid, labels, range } = usePeriodTab(period);
  const session = useSession();
  const auth = session.status === 'authenticated' ? session.auth : null;
  const fleet = auth?.fleets.find((f) => f.id === fid);
  const list = useUnitFuelFillings(fid, object.id, range.from, range.to);
  const rows = useMemo(
    () => [...(list.data ?? [])].sort((a, b) => b.date - a.date || b.id - a.id),
    [list.data],
  );
  const totals = fuelTotals(rows);
  const lang = i18n.language;
  const volumeUnit = volumeLabel(lang, fleet?.fm);
  const currency = fleet?.cur ?? '';
  const dateFormat = auth?.model.s.dateFormat || 'DD.MM.YYYY';
  const timeFormat = auth?.model.s.timeFormat || 'HH:mm';
  const num = (v: number | null) => (v === null ? '-' : formatNumber(v, { locale: lang }));
  const money = (v: number) => formatMoney(v, currency, { locale: lang });
  // A unit that counts engine hours has no per-distance consumption; a filling records no engine hours,
  // so its per-hour consumption is the fuel report's (docs/product.md "Consumption of machines").
  const typeName = auth?.unit_types.find((u) => u.id === object.unit?.ut)?.n;
  const perDistance = countingBasis(typeName) === 'distance';

  return (
    <Stack>
      <PeriodPicker value={period} onChange={onPeriod} />
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <Alert color="red" role="alert">
          {t('objects.loadFailed')}
        </Alert>
      ) : rows.length === 0 ? (
        <Text c="dimmed" data-testid="object-fuel-empty">
          {t('fuel.empty')}
        </Text>
      ) : (
        <>
          <Table.ScrollContainer minWidth={760} type="native">
            <Table striped data-testid="object-fuel">
              <Table.Thead style={{ whiteSpace: 'nowrap' }}>
                <Table.Tr>
                  <Table.Th>{t('fuel.date')}</Table.Th>
                  <Table.Th>{t('fuel.fuelType')}</Table.Th>
                  <Table.Th ta="right">{`${t('fuel.volume')}, ${volumeUnit}`}</Table.Th>
                  <Table.Th ta="right">{t('fuel.price')}</Table.Th>
                  <Table.Th ta="right">{t('fuel.total')}</Table.Th>
                  <Table.Th ta="right">{`${t('fuel.mileage')}, ${labels.distanceUnit}`}</Table.Th>
                  <Table.Th>{t('fuel.fullTank')}</Table.Th>
                  {perDistance && (
                    <Table.Th ta="right">{`${t('fuel.consumption')}, ${consumptionLabel(lang, fleet?.ms, fleet?.fm)}`}</Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((f) => (
                  <Table.Tr key={f.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Anchor component={Link} to={`/fuelfilling/${f.id}?from=unit`}>
                        {formatFleetDateTime(f.date, labels.tz, dateFormat, timeFormat, dayjsLocale())}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{f.fuel_type || '-'}</Table.Td>
                    <Table.Td ta="right">{num(f.volume)}</Table.Td>
                    <Table.Td ta="right">{num(f.price)}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {money(f.total_cost)}
                    </Table.Td>
                    <Table.Td ta="right">
                      {f.mileage === null ? '-' : formatWhole(kmToDisplay(f.mileage, labels.miles), lang)}
                    </Table.Td>
                    <Table.Td>{f.full === 1 ? t('fuel.full') : t('fuel.partial')}</Table.Td>
                    {perDistance && (
                      <Table.Td ta="right">
                        {f.consumption === null
                          ? '-'
                          : formatNumber(f.consumption, { decimals: 1, locale: lang })}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group gap="lg" wrap="wrap" data-testid="object-fuel-totals">
            <Text size="sm" fw={600}>
              {t('fuel.totalVolume')}: {`${num(totals.volume)} ${volumeUnit}`}
            </Text>
            <Text size="sm" fw={600}>
              {t('objects.totalCost')}: <span data-testid="object-fuel-total-cost">{money(totals.cost)}</span>
            </Text>
          </Group>
        </>
      )}
    </Stack>
  );
}
