import { Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { BasicContainer } from '../../../components/BasicContainer/BasicContainer';
import { http } from '../../../lib/http';

export const ROSTER_PATH = '/student/roster';

interface ClassRow {
  id: string;
  name: string;
}
interface ChildRow {
  id: string;
  name: string;
  gender: number;
  birthDate: string;
  studentNo: string;
  guardianName: string;
  guardianPhone?: string;
}

/**
 * A class's roster to print (`/student/roster?classId=`): the class chosen, its children in
 * the caller's data scope (what she may see of them: a caregiver sees no guardian phone), and a
 * print button; the page's chrome is left out of the printout.
 */
export function RosterPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const classId = search.get('classId') ?? '';
  const classes = useQuery({
    queryKey: ['roster', 'classes'],
    queryFn: async () =>
      (await http.get<{ records: ClassRow[] }>('/clazz/classinfo/list', { current: 1, size: 200 })).data.records,
  });
  const rows = useQuery({
    queryKey: ['roster', 'children', classId],
    enabled: Boolean(classId),
    queryFn: async () => (await http.get<ChildRow[]>('/student/student/listStudentsAll', { classId })).data,
  });
  const clazz = classes.data?.find((c) => c.id === classId);
  const gender = (g: number) => t(`system.student.genders.${g === 2 ? 'girl' : 'boy'}`);
  return (
    <BasicContainer data-testid="roster-page">
      <Stack>
        <Group className="no-print" justify="space-between">
          <Select
            w={240}
            placeholder={t('system.student.rosterPick')}
            data={(classes.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
            value={classId || null}
            onChange={(v) => setSearch(v ? { classId: v } : {})}
            data-testid="roster-class"
          />
          <Button
            leftSection={<IconPrinter size={16} />}
            disabled={!rows.data?.length}
            onClick={() => window.print()}
            data-testid="roster-print"
          >
            {t('system.student.rosterPrint')}
          </Button>
        </Group>
        {clazz && (
          <Stack gap={4} align="center">
            <Title order={3}>{t('system.student.rosterTitle', { name: clazz.name })}</Title>
            <Text size="sm" c="dimmed">
              {t('system.student.rosterCount', { count: rows.data?.length ?? 0 })}
            </Text>
          </Stack>
        )}
        {clazz && rows.data?.length === 0 && <Text c="dimmed">{t('system.student.rosterNone')}</Text>}
        {Boolean(rows.data?.length) && (
          <Table withTableBorder withColumnBorders striped data-testid="roster-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={60}>{t('system.student.index')}</Table.Th>
                <Table.Th>{t('system.student.childName')}</Table.Th>
                <Table.Th>{t('system.student.gender')}</Table.Th>
                <Table.Th>{t('system.student.birthDate')}</Table.Th>
                <Table.Th>{t('system.student.studentNo')}</Table.Th>
                <Table.Th>{t('system.student.guardianName')}</Table.Th>
                <Table.Th>{t('system.student.guardianPhone')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.data?.map((c, i) => (
                <Table.Tr key={c.id}>
                  <Table.Td>{i + 1}</Table.Td>
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>{gender(c.gender)}</Table.Td>
                  <Table.Td>{c.birthDate}</Table.Td>
                  <Table.Td>{c.studentNo}</Table.Td>
                  <Table.Td>{c.guardianName}</Table.Td>
                  <Table.Td>{c.guardianPhone ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </BasicContainer>
  );
}
