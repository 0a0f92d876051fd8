import { Button, Group, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { CompanyDto } from '@irp/proto';
import { useMemo, useState } from 'react';
import { useCompaniesQuery } from '../api/usersApi';

const companyLabel = (company: CompanyDto) =>
  `${company.combinedTicker} · ${company.companyName}${company.archived ? ' (archived)' : ''}`;

/**
 * 'Choose Company' and 'Add Row' (spec section 2, Users): the users service finds the stocks whose ticker
 * or company name holds the typed text (exact matching, anywhere, any case); 'Add Row' hands the chosen
 * one (or none) to the editor, which says why it cannot be added.
 */
export function CompanyPicker({ onAdd }: { onAdd: (company: CompanyDto | null) => void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const { data: found = [], isFetching } = useCompaniesQuery(debounced);
  const [chosen, setChosen] = useState<CompanyDto | null>(null);
  const options = useMemo(() => {
    const companies = chosen && !found.some((c) => c.stockId === chosen.stockId) ? [chosen, ...found] : found;
    return companies.map((c) => ({ value: c.stockId, label: companyLabel(c) }));
  }, [chosen, found]);

  return (
    <Group align="end" wrap="wrap" gap="xs">
      <Select
        label="Choose Company"
        placeholder="Ticker or company name"
        searchable
        clearable
        data={options}
        value={chosen?.stockId ?? null}
        searchValue={search}
        onSearchChange={setSearch}
        onChange={(stockId) =>
          setChosen(found.find((c) => c.stockId === stockId) ?? (stockId ? chosen : null))
        }
        // The service has matched already (exact matching): show what it found, unfiltered.
        filter={({ options: all }) => all}
        nothingFoundMessage={isFetching ? 'Searching...' : 'No company matches'}
        w={{ base: '100%', xs: 420 }}
      />
      <Button
        variant="default"
        onClick={() => {
          onAdd(chosen);
          if (chosen) {
            setChosen(null);
            setSearch('');
          }
        }}
      >
        Add Row
      </Button>
    </Group>
  );
}
