import type { SessionAuthReply } from '@fleetkeep/core';
import { Accordion, ActionIcon, Button, Group, Loader, Box as MBox, Paper, Text, Title } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import {
  type PointerEvent as ReactPointerEvent,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { guardUser } from '../../lib/session.ts';
import {
  type Box,
  displayedBox,
  HELP_RESIZE_DEBOUNCE_MS,
  isSheet,
  mainOverlap,
  moveBox,
  placedBox,
  type ResizeEdge,
  reservedSpace,
  resizeBox,
  snapBox,
} from './geometry.ts';
import classes from './HelpDialog.module.css';
import { loadPhrases, lookupPhrase, type Phrases, paragraphs } from './phrases.ts';
import { groupOf, isVisibleId, visibleHelp } from './sections.ts';
import { closeHelp, setHelpBox, setHelpMode, useHelp, useHelpRequest, viewport } from './store.ts';

const EDGES: ResizeEdge[] = ['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw'];

type Gesture = { kind: 'move' } | { kind: 'resize'; edge: ResizeEdge };

/** Phrases of the language and of English (the fallback), each fetched once. */
function usePhrases(lang: string): { own: Phrases | null; en: Phrases | null; ready: boolean } {
  const [state, setState] = useState<{ lang: string; own: Phrases | null; en: Phrases | null } | null>(null);
  useEffect(() => {
    let live = true;
    void Promise.all([loadPhrases(lang), lang === 'en' ? Promise.resolve(null) : loadPhrases('en')]).then(
      ([own, en]) => {
        if (live) setState({ lang, own, en: lang === 'en' ? own : en });
      },
    );
    return () => {
      live = false;
    };
  }, [lang]);
  const ready = state !== null && state.lang === lang;
  return { own: ready ? state.own : null, en: ready ? state.en : null, ready };
}

function Icon({ d }: { d: string }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d={d} />
    </svg>
  );
}

/** The floating help dialog of spec §2: draggable, resizable, minimizable, maximizable, snapping. */
export default function HelpDialog({ auth }: { auth: SessionAuthReply }) {
  const { t, i18n } = useTranslation();
  const help = useHelp();
  const requestNo = useHelpRequest();
  const [vp, setVp] = useState(viewport);
  const [live, setLive] = useState<Box | null>(null);
  const gesture = useRef<{ g: Gesture; start: Box; px: number; py: number } | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const user = guardUser(auth);
  const groups = useMemo(() => visibleHelp(user), [user.su, user.admin, user.fid, user.fleets]);
  const { own, en, ready } = usePhrases(i18n.language);
  const phrase = useCallback((key: string) => lookupPhrase(key, own, en), [own, en]);

  const target = help.section && isVisibleId(user, help.section) ? help.section : null;
  const [expanded, setExpanded] = useState<string | null>(target);

  // A new request (header button, menu) expands and scrolls to its section.
  useEffect(() => {
    if (requestNo === 0) return;
    setExpanded(target);
  }, [requestNo]);

  useEffect(() => {
    if (!ready || !target || (help.mode === 'minimized' && !isSheet(vp))) return;
    const el = body.current?.querySelector(`[data-help-id="${target}"]`);
    if (el instanceof HTMLElement) el.scrollIntoView({ block: 'start' });
  }, [ready, target, requestNo, help.mode, vp]);

  // The viewport is re-measured, debounced, when the window resizes; the box stays on screen.
  const onWindowResize = useDebouncedCallback(() => setVp(viewport()), HELP_RESIZE_DEBOUNCE_MS);
  useEffect(() => {
    window.addEventListener('resize', onWindowResize);
    return () => window.removeEventListener('resize', onWindowResize);
  }, [onWindowResize]);

  const placed = placedBox(help, vp);
  const box = live ?? placed;
  const shown = displayedBox(box, help.mode, vp);
  // At phone width a full-screen sheet: no moving, resizing, minimizing or maximizing, one close button.
  const sheet = isSheet(vp);
  const normal = help.mode === 'normal' && !sheet;
  const closeButton = useRef<HTMLButtonElement>(null);
  // The sheet covers the screen: the focus goes to its close button, so the way back is one step away.
  useEffect(() => {
    if (sheet) closeButton.current?.focus();
  }, [sheet]);

  // Docked, the dialog gets its own strip of the window instead of lying over the screen, so
  // the screen's Save stays in view and clickable. At the right it starts below the top margin (spec §9),
  // clear of the header: only the screen's content (main) moves out of its way, by what the dialog
  // would otherwise cover of it, and the header keeps its full width. At the bottom the page gets room
  // below to scroll everything above the dialog.
  const reserved = reservedSpace(placed, help.mode, vp);
  useEffect(() => {
    const root = document.getElementById('root');
    const main = root?.querySelector('main');
    if (!root) return;
    const right = main instanceof HTMLElement ? main : null;
    // The screen's own padding (an inline style of its Box) is put back as it was.
    const ownPadding = right?.style.paddingRight ?? '';
    if (right) {
      const covered = mainOverlap(right.getBoundingClientRect().right, reserved.right, vp.w);
      if (covered > 0) right.style.paddingRight = `calc(${ownPadding || '0px'} + ${covered}px)`;
    }
    root.style.paddingBottom = reserved.bottom ? `${reserved.bottom}px` : '';
    root.dataset.helpDock = reserved.right ? 'right' : reserved.bottom ? 'bottom' : '';
    return () => {
      if (right) right.style.paddingRight = ownPadding;
      root.style.paddingBottom = '';
      delete root.dataset.helpDock;
    };
  }, [reserved.right, reserved.bottom, vp.w]);

  // Spec §8: Escape closes the dialog wherever the focus is, unless something above it takes the key
  // first: a modal or blocking dialog, or an open menu, list or picker. What is open is looked at when
  // the key goes down (capture, before any handler closes the menu), the dialog closes when it comes
  // back up unhandled.
  useEffect(() => {
    let above = false;
    const look = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      const open = document.querySelectorAll(
        '[aria-modal="true"], [role="menu"], [role="listbox"], .mantine-Popover-dropdown',
      );
      const active = document.activeElement;
      above =
        [...open].some((el) => el.getClientRects().length > 0) ||
        (active instanceof HTMLElement && active.getAttribute('aria-expanded') === 'true');
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && !above) closeHelp();
    };
    window.addEventListener('keydown', look, true);
    document.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', look, true);
      document.removeEventListener('keydown', onKey);
    };
  }, []);

  const begin = (g: Gesture) => (e: ReactPointerEvent<HTMLElement>) => {
    if (e.button !== 0 || !normal) return;
    if (g.kind === 'move' && (e.target as HTMLElement).closest('button')) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    gesture.current = { g, start: box, px: e.clientX, py: e.clientY };
  };
  const move = (e: ReactPointerEvent<HTMLElement>) => {
    const cur = gesture.current;
    if (!cur) return;
    const dx = e.clientX - cur.px;
    const dy = e.clientY - cur.py;
    setLive(
      cur.g.kind === 'move' ? moveBox(cur.start, dx, dy, vp) : resizeBox(cur.start, cur.g.edge, dx, dy, vp),
    );
  };
  const end = () => {
    const cur = gesture.current;
    gesture.current = null;
    if (!cur || !live) return;
    setHelpBox(cur.g.kind === 'move' ? snapBox(live, vp) : live, vp);
    setLive(null);
  };

  const title = (
    <Group
      className={classes.titleBar}
      data-movable={normal || undefined}
      data-testid="help-titlebar"
      justify="space-between"
      wrap="nowrap"
      gap={4}
      onPointerDown={begin({ kind: 'move' })}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
      onDoubleClick={(e) => {
        if (!sheet && !(e.target as HTMLElement).closest('button'))
          setHelpMode(help.mode === 'maximized' ? 'normal' : 'maximized');
      }}
    >
      <Title order={2} size="h5" className={classes.title} id="help-dialog-title">
        {t('menu.help')}
      </Title>
      {sheet ? (
        <Button
          ref={closeButton}
          variant="light"
          onClick={closeHelp}
          leftSection={<Icon d="M6 6l12 12M18 6L6 18" />}
          data-testid="help-close"
        >
          {t('help.close')}
        </Button>
      ) : (
        <Group gap={2} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={help.mode === 'minimized' ? t('help.restore') : t('help.minimize')}
            onClick={() => setHelpMode(help.mode === 'minimized' ? 'normal' : 'minimized')}
            data-testid="help-minimize"
          >
            <Icon d={help.mode === 'minimized' ? 'M5 12h14M12 5v14' : 'M5 12h14'} />
          </ActionIcon>
          {help.mode !== 'minimized' && (
            <ActionIcon
              variant="subtle"
              color="gray"
              aria-label={help.mode === 'maximized' ? t('help.restore') : t('help.maximize')}
              onClick={() => setHelpMode(help.mode === 'maximized' ? 'normal' : 'maximized')}
              data-testid="help-maximize"
            >
              <Icon d={help.mode === 'maximized' ? 'M8 8h11v11H8zM5 16V5h11' : 'M5 5h14v14H5z'} />
            </ActionIcon>
          )}
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('help.close')}
            onClick={closeHelp}
            data-testid="help-close"
          >
            <Icon d="M6 6l12 12M18 6L6 18" />
          </ActionIcon>
        </Group>
      )}
    </Group>
  );

  const text = (key: string) =>
    paragraphs(phrase(key)).map((p) => (
      <Text key={p} size="sm" mb="xs">
        {p}
      </Text>
    ));

  return (
    <Paper
      role="dialog"
      aria-labelledby="help-dialog-title"
      data-testid="help-dialog"
      data-mode={sheet ? 'sheet' : help.mode}
      className={classes.dialog}
      shadow="xl"
      withBorder
      radius={help.mode === 'maximized' || sheet ? 0 : 'md'}
      style={{ left: shown.x, top: shown.y, width: shown.w, height: shown.h }}
    >
      {title}
      {(help.mode !== 'minimized' || sheet) && (
        <div className={classes.body} ref={body}>
          {!ready ? (
            <Group justify="center" p="md">
              <Loader size="sm" aria-label={t('common.loading')} />
            </Group>
          ) : (
            groups.map((g) => (
              <MBox key={g.id} component="section" data-help-id={g.id} mb="md">
                <Title order={3} size="h6" mb={4} c={groupOf(target ?? '') === g.id ? 'blue' : undefined}>
                  {phrase(`${g.id}.title`)}
                </Title>
                {g.sections.length === 0 ? (
                  text(`${g.id}.text`)
                ) : (
                  <Accordion
                    variant="contained"
                    value={expanded}
                    onChange={setExpanded}
                    chevronPosition="right"
                  >
                    {g.sections.map((s) => (
                      <Accordion.Item key={s} value={s} data-help-id={s}>
                        <Accordion.Control>{phrase(`${s}.title`)}</Accordion.Control>
                        <Accordion.Panel>{text(`${s}.text`)}</Accordion.Panel>
                      </Accordion.Item>
                    ))}
                  </Accordion>
                )}
              </MBox>
            ))
          )}
        </div>
      )}
      {normal &&
        EDGES.map((edge) => (
          <div
            key={edge}
            className={classes.handle}
            data-edge={edge}
            data-testid={`help-resize-${edge}`}
            aria-hidden="true"
            onPointerDown={begin({ kind: 'resize', edge })}
            onPointerMove={move}
            onPointerUp={end}
            onPointerCancel={end}
          />
        ))}
    </Paper>
  );
}
