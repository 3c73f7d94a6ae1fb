import '@mantine/charts/styles.css';
import { BarChart, LineChart, PieChart } from '@mantine/charts';
import type { ReportChart as Chart, ReportColumn, Row } from '../api';

const COLORS = ['teal.6', 'blue.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.6', 'pink.6'];

/** A report's chart (bar, line or pie) over its rows; nothing for `none`. */
export function ReportChart({ chart, columns, rows }: { chart: Chart; columns: ReportColumn[]; rows: Row[] }) {
  if (chart.type === 'none' || !chart.x || !chart.y.length || !rows.length) return null;
  const label = (key: string) => columns.find((c) => c.key === key)?.label ?? key;
  const data = rows.map((r) => {
    const point: Record<string, string | number> = { [chart.x]: String(r[chart.x] ?? '') };
    for (const y of chart.y) point[y] = Number(r[y] ?? 0);
    return point;
  });
  if (chart.type === 'pie') {
    const y = chart.y[0] as string;
    const pie = data.map((d, i) => ({
      name: String(d[chart.x]),
      value: Number(d[y] ?? 0),
      color: COLORS[i % COLORS.length] as string,
    }));
    return (
      <div data-testid="report-chart" data-chart="pie">
        <PieChart data={pie} withLabels withTooltip labelsType="value" size={220} mx="auto" />
      </div>
    );
  }
  const series = chart.y.map((y, i) => ({ name: y, label: label(y), color: COLORS[i % COLORS.length] as string }));
  const Chart = chart.type === 'line' ? LineChart : BarChart;
  return (
    <div data-testid="report-chart" data-chart={chart.type}>
      <Chart h={260} data={data} dataKey={chart.x} series={series} withLegend />
    </div>
  );
}
