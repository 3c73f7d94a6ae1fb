import 'dayjs/locale/zh-cn';
import { DatePickerInput, DatesProvider, DateTimePicker } from '@mantine/dates';
import type { ReactNode } from 'react';
import { formValueOf, pickerValue, rangeBounds } from './dates';

/** Mantine's dates in the interface language (dayjs `zh-cn` for Chinese), weeks from Monday. */
function InLanguage({ language, children }: { language: string; children: ReactNode }) {
  const zh = language.toLowerCase().startsWith('zh');
  return <DatesProvider settings={{ locale: zh ? 'zh-cn' : 'en', firstDayOfWeek: 1 }}>{children}</DatesProvider>;
}
/** The month over the calendar: 2026年11月 in Chinese, November 2026 in English. */
const monthLabel = (language: string) => (language.toLowerCase().startsWith('zh') ? 'YYYY年M月' : 'MMMM YYYY');

interface DateTimeFieldProps {
  language: string;
  label: string;
  name: string;
  error?: ReactNode;
  withAsterisk?: boolean;
  readOnly?: boolean;
  placeholder?: string;
  clearable?: boolean;
  onBlur?: () => void;
  'data-testid': string;
  value: unknown;
  /** The server's text `yyyy-MM-dd HH:mm:ss`, or '' when cleared. */
  onChange: (value: string) => void;
}

/** A `datetime` field: Mantine's date-time picker over the server's text (the form keeps the text). */
export function DateTimeField({ language, value, onChange, ...props }: DateTimeFieldProps) {
  return (
    <InLanguage language={language}>
      <DateTimePicker
        {...props}
        variant={props.readOnly ? 'filled' : 'default'}
        valueFormat="YYYY-MM-DD HH:mm:ss"
        withSeconds
        monthLabelFormat={monthLabel(language)}
        popoverProps={{ withinPortal: true }}
        submitButtonProps={{ 'aria-label': 'ok', 'data-testid': 'date-time-submit' } as never}
        value={pickerValue(value)}
        onChange={(picked) => onChange(formValueOf(picked))}
      />
    </InLanguage>
  );
}

interface DateRangeFieldProps {
  language: string;
  label: string;
  placeholder?: string;
  'data-testid': string;
  /** The bounds as the list call sends them (`… 00:00:00`, `… 23:59:59`), '' for an open end. */
  from: unknown;
  to: unknown;
  onChange: (from: string, to: string) => void;
}

/** A range search of days (`<prop>_dategt` / `_datelt`): Mantine's range picker, each end a whole day. */
export function DateRangeField({ language, from, to, onChange, ...props }: DateRangeFieldProps) {
  return (
    <InLanguage language={language}>
      <DatePickerInput
        {...props}
        type="range"
        allowSingleDateInRange
        clearable
        valueFormat="YYYY-MM-DD"
        monthLabelFormat={monthLabel(language)}
        popoverProps={{ withinPortal: true }}
        value={[pickerValue(from, false), pickerValue(to, false)]}
        onChange={([start, end]) => onChange(...rangeBounds(start, end))}
      />
    </InLanguage>
  );
}
