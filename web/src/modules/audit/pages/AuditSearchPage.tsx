import { ActionIcon, Anchor, Tooltip } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { CrudPage, type CrudRecord } from '../../../kit/crud';
import { streamHref } from '../paths';
import { auditSearch } from '../screens/search';

/** 审计追溯 (menu `audit`, `/system/audit`): find any stream, open its story. */
export function AuditSearchPage() {
  const { t } = useTranslation();
  const definition = useMemo(() => {
    const typeName = (type: string) => t(`audit.types.${type}` as never, { defaultValue: type });
    return {
      ...auditSearch,
      columns: auditSearch.columns.map((c) =>
        c.prop === 'title'
          ? {
              ...c,
              cell: (row: CrudRecord) => (
                <Anchor component={Link} to={streamHref(String(row.id))} size="sm" data-testid="audit-row-title">
                  {String(row.title ?? '') || `${t('audit.search.untitled')} ${String(row.streamId)}`}
                </Anchor>
              ),
            }
          : c.prop === 'streamType'
            ? { ...c, cell: (row: CrudRecord) => typeName(String(row.streamType)) }
            : c.prop === 'lastActor'
              ? {
                  ...c,
                  cell: (row: CrudRecord) =>
                    `${String(row.lastActor ?? '')} · ${row.lastEvent ? t(`audit.events.${String(row.lastEvent)}` as never, { defaultValue: String(row.lastEvent) }) : ''}`,
                }
              : c,
      ),
    };
  }, [t]);
  return (
    <CrudPage
      definition={definition}
      extras={{
        rowCount: 1,
        row: (row) => (
          <Tooltip label={t('audit.search.open')}>
            <ActionIcon
              component={Link}
              to={streamHref(String(row.id))}
              variant="subtle"
              aria-label={t('audit.search.open')}
              data-testid="audit-open"
            >
              <IconHistory size={16} />
            </ActionIcon>
          </Tooltip>
        ),
      }}
    />
  );
}
