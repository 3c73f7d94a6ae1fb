import { parseDataSourceUrl } from '@sprout/core/datasource/sources';
import { z } from 'zod';
import { NullableIdSchema, optionalText } from '../../http/params';
import { rowSecret } from '../../http/secret';

/** The one driver: PostgreSQL (BladeX names it by its JDBC class). */
export const DRIVERS = ['org.postgresql.Driver'] as const;

/** A data source's fields as list and detail answer them (the password apart: never answered). */
export const DataSourceFields = z.object({
  name: z.string({ error: '$datasource.name' }).trim().min(1, '$datasource.name').max(100, '$datasource.nameFormat'),
  driverClass: z.enum(DRIVERS, { error: '$datasource.driverClass' }).default('org.postgresql.Driver'),
  url: z
    .string({ error: '$datasource.url' })
    .trim()
    .min(1, '$datasource.url')
    .max(1000, '$datasource.urlFormat')
    .refine((v) => parseDataSourceUrl(v) !== undefined, '$datasource.urlFormat'),
  username: z
    .string({ error: '$datasource.username' })
    .trim()
    .min(1, '$datasource.username')
    .max(100, '$datasource.username'),
  remark: optionalText(255),
});

/** The password: wrapped to its row, never answered (masked when stored), kept when sent blank or masked. */
export const dataSourceSecret = rowSecret('datasource', '$datasource.passwordFormat');

/** What `submit` takes: the fields and the password (the answer's `password` is the mask). */
export const DataSourceSubmit = DataSourceFields.extend({
  id: NullableIdSchema.optional(),
  password: dataSourceSecret.input,
});
