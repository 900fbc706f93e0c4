import { formatCalendarDay, formatNumber, type ReportChartWire } from '@fleetkeep/core';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { Chart } from '../../components/Chart.tsx';
import { displayNumber, formatTotal, type ReportFormatContext } from './columns.ts';

const SERIES_COLOR = '#228be6';

/**
 * The report's chart (core contract `reportChartWire`): a line over the time buckets when the report is
 * grouped, bars per row label (object, line item, interval) otherwise; values in the fleet's display
 * units (miles, cost per mile), the axis shortened with k/M (spec §9), the tooltip with the unit.
 */
export function ReportChart({
  chart,
  name,
  label,
  ctx,
}: {
  chart: ReportChartWire;
  /** The series' title (its column's). */
  name: string;
  /** Accessible name of the chart. */
  label: string;
  ctx: ReportFormatContext;
}) {
  const option = useMemo<EChartsCoreOption>(() => {
    const byPeriod = chart.x === 'period';
    const xs = chart.points.map((p) => (byPeriod ? formatCalendarDay(p.x, ctx.dateFormat, ctx.locale) : p.x));
    const ys = chart.points.map((p) => displayNumber(chart.kind, p.y, ctx.ms));
    return {
      animationDuration: 300,
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: unknown) => (typeof v === 'number' ? formatTotal(chart.kind, v, ctx) : '–'),
      },
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      xAxis: {
        type: 'category',
        data: xs,
        axisLabel: byPeriod
          ? { hideOverlap: true }
          : { rotate: 40, width: 110, overflow: 'truncate', hideOverlap: true },
      },
      yAxis: {
        type: 'value',
        axisLabel: {
          formatter: (v: number) => formatNumber(v, { decimals: 1, suffix: true, locale: ctx.lang }),
        },
      },
      series: [
        byPeriod
          ? {
              name,
              type: 'line',
              data: ys,
              connectNulls: true,
              showSymbol: ys.length <= 62,
              areaStyle: { opacity: 0.12 },
              itemStyle: { color: SERIES_COLOR },
            }
          : { name, type: 'bar', data: ys, itemStyle: { color: SERIES_COLOR } },
      ],
    };
  }, [chart, name, ctx]);
  return <Chart option={option} height={280} label={label} testId="report-chart" />;
}
