import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { useTranslation } from 'react-i18next';

export interface WeekChartRow {
  week: string;
  created: number;
  submitted: number;
  approved: number;
  returned: number;
}

/**
 * The dashboard's weeks as bars. Its own chunk (the charting library is ~400 kB): the home
 * page draws its figures first and this when it has loaded.
 */
export default function WeekChart({ data }: { data: WeekChartRow[] }) {
  const { t } = useTranslation();
  return (
    <BarChart
      h={240}
      data={data}
      dataKey="week"
      withLegend
      legendProps={{ verticalAlign: 'bottom', height: 32, itemSorter: null }}
      yAxisProps={{ allowDecimals: false }}
      tickLine="y"
      series={[
        { name: 'created', label: t('week.dashboard.created'), color: 'blue.5' },
        { name: 'submitted', label: t('week.dashboard.submitted'), color: 'orange.5' },
        { name: 'approved', label: t('week.dashboard.approved'), color: 'teal.5' },
        { name: 'returned', label: t('week.dashboard.returned'), color: 'red.4' },
      ]}
      data-testid="dashboard-chart"
    />
  );
}
