import type { RouteName } from '@fleetkeep/core';
import { lazy, type ReactNode, Suspense } from 'react';
import {
  createBrowserRouter,
  createRoutesFromElements,
  Navigate,
  Outlet,
  Route,
  useLocation,
} from 'react-router';
import { Loading } from '../components/Loading.tsx';
import { isExplicitLogout, rememberOrigin, useSession } from '../lib/session.ts';
import { LoginScreen } from '../screens/Login.tsx';
import { ErrorScreen } from './ErrorScreen.tsx';
import { Guarded } from './Guarded.tsx';

const Shell = lazy(() => import('./Shell.tsx'));
const SetupScreen = lazy(() => import('../features/setup/SetupScreen.tsx'));
const SettingsScreen = lazy(() => import('../screens/Settings.tsx'));
const TokensScreen = lazy(() => import('../screens/Tokens.tsx'));
const FleetMap = lazy(() => import('../features/map/FleetMap.tsx'));
const DashboardScreen = lazy(() => import('../features/dashboard/DashboardScreen.tsx'));
const IntervalsScreen = lazy(() => import('../features/intervals/IntervalsScreen.tsx'));
const IntervalEditorScreen = lazy(() => import('../features/intervals/editor/IntervalEditorScreen.tsx'));
const LineItemsScreen = lazy(() => import('../features/lineitems/LineItemsScreen.tsx'));
const ServicesScreen = lazy(() => import('../features/services/list/ServicesScreen.tsx'));
const CloseServicesScreen = lazy(() => import('../features/services/close/CloseServicesScreen.tsx'));
const ServiceEditorScreen = lazy(() => import('../features/services/editor/ServiceEditorScreen.tsx'));
const ItemsScreen = lazy(() => import('../features/objects/ItemsScreen.tsx'));
const ObjectScreen = lazy(() => import('../features/objects/ObjectScreen.tsx'));
const ActivationScreen = lazy(() => import('../features/activation/ActivationScreen.tsx'));
const AdminScreen = lazy(() => import('../features/admin/AdminScreen.tsx'));
const FleetAdminScreen = lazy(() => import('../features/fleetadmin/FleetAdminScreen.tsx'));
const FuelFillingsScreen = lazy(() => import('../features/fuel/FuelFillingsScreen.tsx'));
const FuelEditorScreen = lazy(() => import('../features/fuel/FuelEditorScreen.tsx'));
const InspectionsScreen = lazy(() => import('../features/inspections/InspectionsScreen.tsx'));
const StartInspectionScreen = lazy(() => import('../features/inspections/StartInspectionScreen.tsx'));
const InspectionScreen = lazy(() => import('../features/inspections/InspectionScreen.tsx'));
const InspectionFormsScreen = lazy(() => import('../features/inspections/FormsScreen.tsx'));
const ReportsScreen = lazy(() => import('../features/reports/ReportsScreen.tsx'));
const MigrationScreen = lazy(() => import('../features/migration/MigrationScreen.tsx'));
const ImportScreen = lazy(() => import('../features/imports/ImportScreen.tsx'));
const IssuesScreen = lazy(() => import('../features/issues/IssuesScreen.tsx'));
const IssuePage = lazy(() => import('../features/issues/IssuePage.tsx'));
const ObjectIssuesTab = lazy(async () => ({
  default: (await import('../features/issues/ObjectIssuesTab.tsx')).ObjectIssuesTab,
}));
const WorkOrdersScreen = lazy(() => import('../features/work-orders/WorkOrdersScreen.tsx'));
const WorkOrderScreen = lazy(() => import('../features/work-orders/WorkOrderScreen.tsx'));
const DocumentsScreen = lazy(() => import('../features/documents/DocumentsScreen.tsx'));
const DocumentScreen = lazy(() => import('../features/documents/DocumentScreen.tsx'));
const ObjectDocumentsTab = lazy(async () => ({
  default: (await import('../features/documents/ObjectDocumentsTab.tsx')).ObjectDocumentsTab,
}));
const ComponentsScreen = lazy(() => import('../features/components/ComponentsScreen.tsx'));
const ComponentScreen = lazy(() => import('../features/components/ComponentScreen.tsx'));
const UnitTyresTab = lazy(() =>
  import('../features/components/TyresTab.tsx').then((m) => ({ default: m.TyresTab })),
);
const PartsScreen = lazy(() => import('../features/parts/PartsScreen.tsx'));
const PartScreen = lazy(() => import('../features/parts/PartScreen.tsx'));
const PurchaseOrderScreen = lazy(() => import('../features/parts/PurchaseOrderScreen.tsx'));

/** Every route needs a logged-in user; otherwise /login, remembering where the user wanted to go. */
function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <Loading />;
  if (session.status === 'anonymous') {
    if (!isExplicitLogout()) rememberOrigin(`${location.pathname}${location.search}`);
    return <Navigate to="/login" replace />;
  }
  return (
    <Suspense fallback={<Loading />}>
      <Shell />
    </Suspense>
  );
}

/** The "Issues" tab of a unit's or trailer's page (features/issues, composed here). */
const objectIssues = (type: 'u' | 't', id: number) => (
  <Suspense fallback={<Loading />}>
    <ObjectIssuesTab type={type} id={id} />
  </Suspense>
);

/** The "Documents" tab of a unit's, trailer's or driver's page (features/documents, composed here). */
const objectDocuments = (type: 'u' | 't' | 'd', id: number) => (
  <Suspense fallback={<Loading />}>
    <ObjectDocumentsTab type={type} id={id} />
  </Suspense>
);

/** The "Tyres" tab of a unit's page (features/components, composed here). */
const unitTyres = (unitId: number, unitTypeId: number | null) => (
  <Suspense fallback={<Loading />}>
    <UnitTyresTab unitId={unitId} unitTypeId={unitTypeId} />
  </Suspense>
);

/** A screen behind its route guard (core guards.ts). */
function guarded(route: RouteName, element: ReactNode): ReactNode {
  return <Guarded route={route}>{element}</Guarded>;
}

export const router = createBrowserRouter(
  createRoutesFromElements(
    <Route element={<Outlet />} errorElement={<ErrorScreen />}>
      <Route path="/login" element={<LoginScreen />} />
      <Route
        path="/setup"
        element={
          <Suspense fallback={<Loading />}>
            <SetupScreen />
          </Suspense>
        }
      />
      <Route element={<RequireAuth />}>
        <Route index element={<Guarded route="index">{null}</Guarded>} />
        <Route path="activation" element={guarded('activation', <ActivationScreen />)} />
        <Route path="admin" element={guarded('admin', <AdminScreen />)} />
        <Route path="fleet/:id" element={guarded('fleet', <FleetAdminScreen />)} />
        <Route path="migration/:id" element={guarded('migration', <MigrationScreen />)} />
        <Route path="dashboard" element={guarded('dashboard', <DashboardScreen map={<FleetMap />} />)} />
        <Route path="items" element={guarded('items', <ItemsScreen />)} />
        <Route path="units/import" element={<ImportScreen kind="units" />} />
        <Route
          path="unit/:id"
          element={guarded(
            'unit',
            <ObjectScreen
              kind="unit"
              unitMap={<FleetMap mode="unit" />}
              issuesTab={objectIssues}
              documentsTab={objectDocuments}
              tyresTab={unitTyres}
            />,
          )}
        />
        <Route
          path="trailer/:id"
          element={guarded(
            'trailer',
            <ObjectScreen kind="trailer" issuesTab={objectIssues} documentsTab={objectDocuments} />,
          )}
        />
        <Route
          path="driver/:id"
          element={guarded('driver', <ObjectScreen kind="driver" documentsTab={objectDocuments} />)}
        />
        <Route path="intervals" element={guarded('intervals', <IntervalsScreen />)} />
        <Route path="intervals/import" element={<ImportScreen kind="intervals" />} />
        <Route path="interval/:id" element={guarded('interval', <IntervalEditorScreen />)} />
        <Route path="services" element={guarded('services', <ServicesScreen />)} />
        <Route path="services/close" element={guarded('servicesClose', <CloseServicesScreen />)} />
        <Route path="services/import" element={<ImportScreen kind="services" />} />
        <Route path="service/:id" element={guarded('service', <ServiceEditorScreen />)} />
        <Route path="issues" element={guarded('issues', <IssuesScreen />)} />
        <Route path="issues/import" element={<ImportScreen kind="issues" />} />
        <Route path="issues/:id" element={guarded('issue', <IssuePage />)} />
        <Route path="fuelfillings" element={guarded('fuelfillings', <FuelFillingsScreen />)} />
        <Route path="fuelfillings/import" element={<ImportScreen kind="fuelfillings" />} />
        <Route path="fuelfilling/:id" element={guarded('fuelfilling', <FuelEditorScreen />)} />
        <Route path="inspections" element={guarded('inspections', <InspectionsScreen />)} />
        <Route path="inspections/new" element={guarded('inspections', <StartInspectionScreen />)} />
        <Route path="inspections/forms" element={guarded('inspections', <InspectionFormsScreen />)} />
        <Route path="inspections/:id" element={guarded('inspections', <InspectionScreen />)} />
        <Route path="reports" element={guarded('reports', <ReportsScreen />)} />
        <Route path="lineitems" element={guarded('lineitems', <LineItemsScreen />)} />
        <Route path="lineitems/import" element={<ImportScreen kind="lineitems" />} />
        <Route path="work-orders" element={guarded('workOrders', <WorkOrdersScreen />)} />
        <Route path="work-orders/:id" element={guarded('workOrder', <WorkOrderScreen />)} />
        <Route path="documents" element={guarded('documents', <DocumentsScreen />)} />
        <Route path="documents/:id" element={guarded('document', <DocumentScreen />)} />
        <Route path="components" element={guarded('components', <ComponentsScreen />)} />
        <Route path="components/:id" element={guarded('component', <ComponentScreen />)} />
        <Route path="parts" element={guarded('parts', <PartsScreen />)} />
        <Route path="parts/:id" element={guarded('part', <PartScreen />)} />
        <Route path="purchase-orders/:id" element={guarded('purchaseOrder', <PurchaseOrderScreen />)} />
        <Route path="tokens" element={guarded('tokens', <TokensScreen />)} />
        <Route path="settings" element={guarded('settings', <SettingsScreen />)} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Route>
    </Route>,
  ),
);
