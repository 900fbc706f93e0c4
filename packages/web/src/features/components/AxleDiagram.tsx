import { type AxleLayout, type ComponentWire, layoutPositions } from '@fleetkeep/core';
import { useTranslation } from 'react-i18next';

/**
 * The unit's axles seen from above (front at the top): one rectangle per tyre position, filled when a
 * tyre is mounted there (red when its last tread reading was low), each a button that opens mounting
 * or the mounted tyre.
 */

const TYRE_W = 26;
const TYRE_H = 52;
const AXLE_GAP = 96;
const BODY_W = 120;
const WIDTH = 300;

function positionsOf(layout: readonly AxleLayout[]) {
  const mid = WIDTH / 2;
  const out: { position: string; x: number; y: number }[] = [];
  layout.forEach(({ axle, twin }, i) => {
    const y = 40 + i * AXLE_GAP;
    const left = mid - BODY_W / 2 - TYRE_W - 6;
    const right = mid + BODY_W / 2 + 6;
    if (twin) {
      out.push({ position: `${axle}LO`, x: left - TYRE_W - 4, y });
      out.push({ position: `${axle}LI`, x: left, y });
      out.push({ position: `${axle}RI`, x: right, y });
      out.push({ position: `${axle}RO`, x: right + TYRE_W + 4, y });
    } else {
      out.push({ position: `${axle}L`, x: left, y });
      out.push({ position: `${axle}R`, x: right, y });
    }
  });
  return out;
}

export function AxleDiagram({
  layout,
  mounted,
  onPick,
}: {
  layout: readonly AxleLayout[];
  mounted: ReadonlyMap<string, ComponentWire>;
  onPick: (position: string) => void;
}) {
  const { t } = useTranslation();
  const spots = positionsOf(layout);
  const height = 40 + (layout.length - 1) * AXLE_GAP + TYRE_H + 30;
  const mid = WIDTH / 2;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      style={{ maxWidth: 340, display: 'block' }}
      aria-label={t('components.diagram')}
      data-testid="axle-diagram"
      data-positions={layoutPositions(layout).join(',')}
    >
      <title>{t('components.diagram')}</title>
      <rect
        x={mid - BODY_W / 2}
        y={14}
        width={BODY_W}
        height={height - 28}
        rx={18}
        fill="var(--mantine-color-gray-1)"
        stroke="var(--mantine-color-gray-5)"
      />
      <text x={mid} y={32} textAnchor="middle" fontSize={11} fill="var(--mantine-color-dimmed)">
        {t('components.front')}
      </text>
      {layout.map((a, i) => (
        <line
          key={a.axle}
          x1={mid - BODY_W / 2 - 10}
          x2={mid + BODY_W / 2 + 10}
          y1={40 + i * AXLE_GAP + TYRE_H / 2}
          y2={40 + i * AXLE_GAP + TYRE_H / 2}
          stroke="var(--mantine-color-gray-6)"
          strokeWidth={4}
        />
      ))}
      {spots.map(({ position, x, y }) => {
        const c = mounted.get(position);
        const fill = c
          ? c.tread_low
            ? 'var(--mantine-color-red-6)'
            : 'var(--mantine-color-dark-5)'
          : 'var(--mantine-color-body)';
        const label = c ? `${position}: ${c.serial || `#${c.id}`}` : `${position}: ${t('components.free')}`;
        return (
          // biome-ignore lint/a11y/useSemanticElements: an SVG shape cannot be a <button>
          <g
            key={position}
            role="button"
            tabIndex={0}
            aria-label={label}
            data-testid={`tyre-${position}`}
            data-mounted={c ? c.id : undefined}
            style={{ cursor: 'pointer' }}
            onClick={() => onPick(position)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onPick(position);
              }
            }}
          >
            <title>{label}</title>
            <rect
              x={x}
              y={y}
              width={TYRE_W}
              height={TYRE_H}
              rx={6}
              fill={fill}
              stroke="var(--mantine-color-dark-3)"
              strokeWidth={2}
              strokeDasharray={c ? undefined : '4 3'}
            />
            <text
              x={x + TYRE_W / 2}
              y={y + TYRE_H + 14}
              textAnchor="middle"
              fontSize={10}
              fill="var(--mantine-color-text)"
            >
              {position}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
