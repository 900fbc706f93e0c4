import {
  bellVisible,
  indexTarget,
  type MenuVisibility,
  menuVisibility,
  type SessionAuthReply,
} from '@fleetkeep/core';
import {
  ActionIcon,
  Anchor,
  Burger,
  Group,
  Menu,
  NativeSelect,
  Text,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { appConfig, forumHref } from '../features/banners/banners.ts';
import { helpIdForPath } from '../features/help/sections.ts';
import { openHelp } from '../features/help/store.ts';
import { NotificationBell } from '../features/notifications/Bell.tsx';
import { i18next } from '../i18n/index.ts';
import { fleetNameNeedsTooltip, userNameNeedsTooltip } from '../lib/header.ts';
import { guardUser, logout, switchFleet } from '../lib/session.ts';
import classes from './Header.module.css';

type MenuKey = keyof MenuVisibility;
/**
 * The main menu, in order. Entries marked `more` sit in the desktop header's "More" menu (the header
 * has room for about ten at 1280 px); the phone's menu lists them all.
 */
const NAV: { key: MenuKey; to: string; label: string; more?: true }[] = [
  { key: 'activation', to: '/activation', label: 'menu.activation' },
  { key: 'administration', to: '/admin', label: 'menu.administration' },
  { key: 'dashboard', to: '/dashboard', label: 'menu.dashboard' },
  { key: 'items', to: '/items', label: 'menu.items' },
  { key: 'fuelfillings', to: '/fuelfillings', label: 'menu.fuelfillings' },
  { key: 'inspections', to: '/inspections', label: 'inspections.menu' },
  { key: 'intervals', to: '/intervals', label: 'menu.intervals' },
  { key: 'services', to: '/services', label: 'menu.services' },
  { key: 'issues', to: '/issues', label: 'issues.heading' },
  { key: 'workOrders', to: '/work-orders', label: 'workOrders.title' },
  { key: 'reports', to: '/reports', label: 'menu.reports' },
  { key: 'parts', to: '/parts', label: 'parts.title', more: true },
  { key: 'documents', to: '/documents', label: 'documents.title', more: true },
  { key: 'components', to: '/components', label: 'components.title', more: true },
];

function HelpIcon() {
  return (
    <svg
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="10" />
      <path d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3" />
      <path d="M12 17h.01" />
    </svg>
  );
}

/** Tooltips with the full names open on hover, keyboard focus and a tap (spec §2). */
const TOOLTIP_EVENTS = { hover: true, focus: true, touch: true };

/** Documentation link: the configured URL in the current language when it supports it (spec §2). */
function docsHref(docs: NonNullable<SessionAuthReply['docs']>): string {
  const lang = docs.langs.includes(i18next.language) ? i18next.language : (docs.langs[0] ?? 'en');
  return docs.url.includes('{lang}') ? docs.url.replace('{lang}', lang) : docs.url;
}

export function Header({ auth }: { auth: SessionAuthReply }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const forum = appConfig(auth).forum;
  const [navOpen, nav] = useDisclosure(false);
  const user = guardUser(auth);
  const menu = menuVisibility(user);
  const fleet = auth.fleets.find((f) => f.id === auth.fid);
  const showBell = bellVisible(user, auth.model.s.notification?.enabled ?? 31);
  const name = auth.user.nm;
  const items = NAV.filter((n) => menu[n.key]);
  const more = items.filter((n) => n.more);
  const logoTarget = indexTarget(user) === '/dashboard' ? '/dashboard' : '/';

  const exit = async () => {
    await logout();
    navigate('/login', { replace: true });
  };

  const onFleet = async (value: string) => {
    const fid = Number(value);
    if (!fid || fid === auth.fid) return;
    try {
      await switchFleet(fid);
      navigate('/', { replace: true });
    } catch (err) {
      console.warn('fleet switch failed', err);
    }
  };

  return (
    <header className={classes.header}>
      <Group mih={56} px={{ base: 'xs', sm: 'md' }} gap="xs" wrap="nowrap" justify="space-between">
        <Group gap="sm" wrap="nowrap">
          {items.length > 0 && (
            <Burger
              opened={navOpen}
              onClick={nav.toggle}
              hiddenFrom="md"
              size="sm"
              aria-label={t('header.navigation')}
              aria-expanded={navOpen}
            />
          )}
          <Anchor component={Link} to={logoTarget} className={classes.logo} underline="never">
            {t('app.name')}
          </Anchor>
          <nav aria-label={t('header.navigation')} className={classes.desktopNav}>
            {items
              .filter((n) => !n.more)
              .map((n) => (
                <NavLink key={n.key} to={n.to} className={classes.link}>
                  {t(n.label)}
                </NavLink>
              ))}
            {more.length > 0 && (
              <Menu position="bottom-start" withinPortal>
                <Menu.Target>
                  <UnstyledButton
                    className={classes.link}
                    aria-current={more.some((n) => location.pathname.startsWith(n.to)) ? 'page' : undefined}
                    data-testid="menu-more"
                  >
                    {t('menu.more')} ▾
                  </UnstyledButton>
                </Menu.Target>
                <Menu.Dropdown>
                  {more.map((n) => (
                    <Menu.Item key={n.key} component={Link} to={n.to}>
                      {t(n.label)}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            )}
          </nav>
        </Group>
        <Group gap="xs" wrap="nowrap" className={classes.right}>
          {auth.fleets.length > 1 ? (
            <Tooltip
              label={fleet?.n ?? ''}
              disabled={!fleetNameNeedsTooltip(fleet?.n ?? '')}
              withArrow
              events={TOOLTIP_EVENTS}
            >
              <NativeSelect
                size="xs"
                className={classes.fleet}
                aria-label={t('header.fleet')}
                data-testid="fleet-switcher"
                value={fleet ? String(fleet.id) : ''}
                onChange={(e) => void onFleet(e.currentTarget.value)}
                data={[
                  ...(fleet ? [] : [{ value: '', label: t('header.chooseFleet'), disabled: true }]),
                  ...auth.fleets.map((f) => ({ value: String(f.id), label: f.n })),
                ]}
              />
            </Tooltip>
          ) : fleet ? (
            <Tooltip
              label={fleet.n}
              disabled={!fleetNameNeedsTooltip(fleet.n)}
              withArrow
              events={TOOLTIP_EVENTS}
            >
              <Text size="sm" className={classes.fleetName} data-testid="fleet-name" tabIndex={0}>
                {fleet.n}
              </Text>
            </Tooltip>
          ) : null}
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={t('help.open')}
            data-testid="help-button"
            onClick={() => openHelp(helpIdForPath(location.pathname))}
          >
            <HelpIcon />
          </ActionIcon>
          {showBell && <NotificationBell auth={auth} />}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Tooltip label={name} disabled={!userNameNeedsTooltip(name)} withArrow events={TOOLTIP_EVENTS}>
                <UnstyledButton className={classes.user} data-testid="user-menu">
                  <VisuallyHidden>{t('header.userMenu')}</VisuallyHidden>
                  <span className={classes.userName}>{name}</span>
                </UnstyledButton>
              </Tooltip>
            </Menu.Target>
            <Menu.Dropdown>
              {/* The full names, readable on a phone where the header cuts them. */}
              <Menu.Label className={classes.menuNames} data-testid="menu-names">
                <span className={classes.menuName}>{name}</span>
                {fleet && <span className={classes.menuName}>{fleet.n}</span>}
              </Menu.Label>
              {menu.activation && (
                <Menu.Item component={Link} to="/activation">
                  {t('menu.activation')}
                </Menu.Item>
              )}
              {menu.lineitems && (
                <Menu.Item component={Link} to="/lineitems">
                  {t('menu.lineitems')}
                </Menu.Item>
              )}
              <Menu.Item component={Link} to="/settings">
                {t('menu.settings')}
              </Menu.Item>
              {menu.userAdministration && (
                <Menu.Item component={Link} to="/admin">
                  {t('menu.administration')}
                </Menu.Item>
              )}
              <Menu.Item component={Link} to="/tokens">
                {t('menu.tokens')}
              </Menu.Item>
              <Menu.Item onClick={() => openHelp()} data-testid="menu-help">
                {t('menu.help')}
              </Menu.Item>
              {forum && (
                <Menu.Item
                  component="a"
                  href={forumHref(forum, i18next.language)}
                  target="_blank"
                  rel="noopener noreferrer"
                  data-testid="menu-forum"
                >
                  {t('menu.forum')}
                </Menu.Item>
              )}
              {auth.docs && (
                <Menu.Item component="a" href={docsHref(auth.docs)} target="_blank" rel="noopener noreferrer">
                  {t('menu.docs')}
                </Menu.Item>
              )}
              <Menu.Divider />
              <Menu.Item onClick={() => void exit()}>{t('menu.exit')}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
      {navOpen && (
        <nav aria-label={t('header.navigation')} className={classes.mobileNav}>
          {items.map((n) => (
            <NavLink key={n.key} to={n.to} className={classes.link} onClick={nav.close}>
              {t(n.label)}
            </NavLink>
          ))}
        </nav>
      )}
    </header>
  );
}
