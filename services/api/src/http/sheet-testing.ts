import ExcelJS from 'exceljs';
import { XLSX_TYPE } from './sheet';

/** Tests' helpers for the Excel calls: a workbook of rows, a workbook's rows, a multipart upload. */

/** An .xlsx of a header row and data rows. */
export async function xlsxOf(rows: readonly (readonly string[])[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Sheet1');
  for (const r of rows) sheet.addRow([...r]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A workbook's first sheet as rows of cell texts. */
export async function rowsOf(file: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(file as unknown as ExcelJS.Buffer);
  const rows: string[][] = [];
  wb.worksheets[0]?.eachRow((r) => {
    rows.push((r.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return rows;
}

/** A multipart body carrying `file` as the field `file`, and its content type. */
export function multipartOf(file: Buffer, name = 'upload.xlsx') {
  const boundary = `----sprout${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${XLSX_TYPE}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs `file` as a multipart upload to `url` of `app` with `headers` (a caller's), in `lang`: status and JSON body. */
export async function uploadSheet(
  app: { inject: (o: object) => Promise<{ statusCode: number; json: () => unknown }> },
  headers: Record<string, string>,
  url: string,
  file: Buffer,
  lang = 'zh-CN',
) {
  const { payload, contentType } = multipartOf(file);
  const r = await app.inject({
    method: 'POST',
    url,
    headers: { ...headers, 'accept-language': lang, 'content-type': contentType },
    payload,
  });
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever the answer holds
  return { status: r.statusCode, body: r.json() as any };
}
