import { CrudPage } from '../../../kit/crud';
import { dataSources } from '../screens/datasources';

/** 数据源管理 (menu `datasource`, `/tool/datasource`). */
export function DataSourcePage() {
  return <CrudPage definition={dataSources} />;
}
