import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

/**
 * The parts of ECharts the dashboard and the reports draw with (pie, bar and line charts, grid, legend,
 * tooltip, the SVG renderer): named imports, so the bundle keeps only these. Loaded lazily by Chart.tsx.
 */
echarts.use([PieChart, BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

export { echarts };
