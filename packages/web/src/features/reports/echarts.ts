import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/**
 * The parts of ECharts the reports draw with (bar and line charts, grid, legend, tooltip, the SVG
 * renderer): named imports, so the bundle keeps only these. Loaded lazily by Chart.tsx, as the
 * dashboard loads its own (features do not import each other; the bundler shares echarts' chunk).
 */
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export { echarts };
