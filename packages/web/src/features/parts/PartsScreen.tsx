import { type PartWire, type PurchaseOrderWire, routes, type StockLocationWire } from '@fleetkeep/core';
import { Alert, Anchor, Badge, Button, Group, Stack, Tabs, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type DataColumn, DataTable } from '../../components/DataTable/DataTable.tsx';
import { useUrlParams } from '../../lib/urlParams.ts';
import { useCan } from '../../lib/useCan.ts';
import { useFid, useLocations, useOrders, useParts, usePartsFormat } from './api.ts';
import { LocationDialog, NewOrderDialog, PartDialog } from './dialogs.tsx';

/** `/parts`: parts with their stock, the stock locations and the purchase orders (docs/product.md). */
export default function PartsScreen() {
  const { t } = useTranslation();
  const fid = useFid();
  const [params, patchParams] = useUrlParams();
  const tab = params.get('tab') ?? 'parts';
  const setTab = (v: string | null) =>
    patchParams((p) => {
      if (!v || v === 'parts') p.delete('tab');
      else p.set('tab', v);
      return p;
    });
  if (fid === null) return null;
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('parts.title')}
      </Title>
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="parts" data-testid="parts-tab-parts">
            {t('parts.tabParts')}
          </Tabs.Tab>
          <Tabs.Tab value="locations" data-testid="parts-tab-locations">
            {t('parts.tabLocations')}
          </Tabs.Tab>
          <Tabs.Tab value="orders" data-testid="parts-tab-orders">
            {t('parts.tabOrders')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="parts" pt="md">
          <PartsTab fid={fid} />
        </Tabs.Panel>
        <Tabs.Panel value="locations" pt="md">
          <LocationsTab fid={fid} />
        </Tabs.Panel>
        <Tabs.Panel value="orders" pt="md">
          <OrdersTab fid={fid} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function PartsTab({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const fmt = usePartsFormat();
  const list = useParts(fid);
  const canCreate = useCan(routes.parts.create);
  const [creating, setCreating] = useState(false);
  const columns = useMemo<DataColumn<PartWire>[]>(
    () => [
      {
        id: 'number',
        header: t('parts.number'),
        value: (p) => p.number,
        cell: (p) => (
          <Anchor component={Link} to={`/parts/${p.id}`} data-testid={`part-link-${p.id}`}>
            {p.number}
          </Anchor>
        ),
        phone: 'title',
      },
      { id: 'name', header: t('parts.name'), value: (p) => p.name, phone: 'detail' },
      { id: 'manufacturer', header: t('parts.manufacturer'), value: (p) => p.manufacturer, phone: 'detail' },
      {
        id: 'onHand',
        header: t('parts.onHand'),
        value: (p) => p.on_hand,
        text: (p) => `${fmt.qty(p.on_hand)} ${p.unit}`.trim(),
        cell: (p) => (
          <Group gap={4} wrap="nowrap">
            <span data-testid={`part-on-hand-${p.id}`}>{`${fmt.qty(p.on_hand)} ${p.unit}`.trim()}</span>
            {p.low && (
              <Badge color="orange" variant="light">
                {t('parts.low')}
              </Badge>
            )}
          </Group>
        ),
        phone: 'detail',
      },
      {
        id: 'cost',
        header: t('parts.cost'),
        value: (p) => p.cost,
        text: (p) => fmt.money(p.cost),
        csv: (p) => p.cost,
        phone: 'detail',
      },
      {
        id: 'value',
        header: t('parts.value'),
        value: (p) => p.value,
        text: (p) => fmt.money(p.value),
        csv: (p) => p.value,
      },
    ],
    [t, fmt],
  );
  return (
    <Stack>
      {canCreate && (
        <Group justify="flex-end">
          <Button onClick={() => setCreating(true)} data-testid="part-new">
            {t('parts.newPart')}
          </Button>
        </Group>
      )}
      {list.isError ? (
        <Alert color="red" role="alert">
          {t('common.error')}
        </Alert>
      ) : (
        <DataTable
          data={list.data ?? []}
          columns={columns}
          getRowId={(p) => String(p.id)}
          csvName="parts"
          emptyText={t('parts.empty')}
          minWidth={720}
          data-testid="parts-list"
        />
      )}
      {creating && <PartDialog fid={fid} onClose={() => setCreating(false)} />}
    </Stack>
  );
}

function LocationsTab({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const list = useLocations(fid);
  const canCreate = useCan(routes.stockLocations.create);
  const [editing, setEditing] = useState<StockLocationWire | 'new' | null>(null);
  const columns = useMemo<DataColumn<StockLocationWire>[]>(
    () => [
      {
        id: 'name',
        header: t('parts.name'),
        value: (l) => l.name,
        cell: (l) =>
          canCreate ? (
            <Anchor component="button" onClick={() => setEditing(l)} data-testid={`location-${l.id}`}>
              {l.name}
            </Anchor>
          ) : (
            l.name
          ),
        phone: 'title',
      },
      {
        id: 'kind',
        header: t('parts.kind'),
        value: (l) => l.kind,
        text: (l) => t(`parts.kinds.${l.kind}`),
        phone: 'detail',
      },
      { id: 'parts', header: t('parts.tabParts'), value: (l) => l.parts, phone: 'detail' },
    ],
    [t, canCreate],
  );
  return (
    <Stack>
      {canCreate && (
        <Group justify="flex-end">
          <Button onClick={() => setEditing('new')} data-testid="location-new">
            {t('parts.newLocation')}
          </Button>
        </Group>
      )}
      <DataTable
        data={list.data ?? []}
        columns={columns}
        getRowId={(l) => String(l.id)}
        csvName="stock-locations"
        emptyText={t('parts.noLocations')}
        minWidth={480}
        data-testid="locations-list"
      />
      {editing && (
        <LocationDialog
          fid={fid}
          location={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

function OrdersTab({ fid }: { fid: number }) {
  const { t } = useTranslation();
  const fmt = usePartsFormat();
  const navigate = useNavigate();
  const list = useOrders(fid);
  const canCreate = useCan(routes.purchaseOrders.create);
  const [creating, setCreating] = useState(false);
  const columns = useMemo<DataColumn<PurchaseOrderWire>[]>(
    () => [
      {
        id: 'id',
        header: t('parts.order'),
        value: (o) => o.id,
        cell: (o) => (
          <Anchor component={Link} to={`/purchase-orders/${o.id}`} data-testid={`po-link-${o.id}`}>
            {`#${o.id} ${o.vendor}`}
          </Anchor>
        ),
        text: (o) => `#${o.id} ${o.vendor}`,
        phone: 'title',
      },
      {
        id: 'status',
        header: t('parts.status'),
        value: (o) => o.status,
        text: (o) => t(`parts.statuses.${o.status}`),
        phone: 'detail',
      },
      {
        id: 'total',
        header: t('parts.total'),
        value: (o) => o.total,
        text: (o) => fmt.money(o.total),
        phone: 'detail',
      },
      {
        id: 'created',
        header: t('parts.created'),
        value: (o) => o.created,
        text: (o) => fmt.dateTime(o.created),
      },
    ],
    [t, fmt],
  );
  return (
    <Stack>
      {canCreate && (
        <Group justify="flex-end">
          <Button onClick={() => setCreating(true)} data-testid="po-new">
            {t('parts.newOrder')}
          </Button>
        </Group>
      )}
      <DataTable
        data={list.data ?? []}
        columns={columns}
        getRowId={(o) => String(o.id)}
        csvName="purchase-orders"
        emptyText={t('parts.noOrders')}
        minWidth={600}
        data-testid="orders-list"
      />
      {creating && (
        <NewOrderDialog
          fid={fid}
          onClose={() => setCreating(false)}
          onCreated={(id) => navigate(`/purchase-orders/${id}`)}
        />
      )}
    </Stack>
  );
}
