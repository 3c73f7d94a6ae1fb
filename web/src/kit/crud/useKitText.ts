import { useTranslation } from 'react-i18next';
import type { FieldOption, FieldProblem } from './define';

/**
 * `t` for keys a definition carries (its labels and messages live in the context's namespace,
 * the kit's own in `crud`), and the texts of options and field problems.
 */
export function useKitText() {
  const { t, i18n } = useTranslation();
  const tr = (key: string, values?: Record<string, unknown>) => String(t(key as never, values as never));
  return {
    tr,
    language: i18n.resolvedLanguage ?? i18n.language,
    option: (option: FieldOption | undefined) =>
      option ? (option.text ?? (option.label ? tr(option.label) : '')) : '',
    problem: (problem: FieldProblem | undefined) =>
      problem ? (problem.text ?? (problem.key ? tr(problem.key, problem.values) : '')) : undefined,
  };
}
