import { Box } from '@mantine/core';
import type { EChartsCoreOption } from 'echarts/core';
import { type CSSProperties, useEffect, useRef, useState } from 'react';

type ECharts = typeof import('echarts/core');

let loading: Promise<ECharts> | null = null;

/**
 * ECharts ("charts from a maintained library, lazy-loaded"), loaded with the first chart from
 * its modular parts (./echarts.ts), so the main bundle does not carry it. The dashboard and the reports
 * draw with it.
 */
function loadECharts(): Promise<ECharts> {
  loading ??= import('./echarts.ts').then((m) => m.echarts);
  return loading;
}

/**
 * One chart: draws `option` once ECharts has loaded and again when it changes, follows the size of its
 * box (a resize observer: sections move, the window narrows), and is disposed with the component.
 */
export function Chart({
  option,
  height,
  label,
  testId,
  style,
}: {
  option: EChartsCoreOption;
  height: number;
  label: string;
  testId?: string;
  style?: CSSProperties;
}) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<ECharts['init']> | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let alive = true;
    let observer: ResizeObserver | null = null;
    loadECharts().then((echarts) => {
      if (!alive || !box.current) return;
      const instance = echarts.init(box.current, null, { renderer: 'svg' });
      chart.current = instance;
      observer = new ResizeObserver(() => instance.resize());
      observer.observe(box.current);
      setReady(true);
    });
    return () => {
      alive = false;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (ready) chart.current?.setOption(option, true);
  }, [ready, option]);

  return (
    <Box
      ref={box}
      role="img"
      aria-label={label}
      data-testid={testId}
      data-ready={ready ? 1 : 0}
      style={{ height, width: '100%', minWidth: 0, ...style }}
    />
  );
}
