import { Alert, Center, Loader, Stack } from '@mantine/core';
import { useAppSelector } from '@/app/hooks';
import { NotAllowed } from '@/components/NotAllowed';
import { Page } from '@/components/Page';
import { Section } from '@/components/Section';
import { SaveFlowProvider } from '@/components/save/SaveFlow';
import { errorMessageOf } from '@/lib/apiError';
import { isAdmin } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { useGetSystemSettingsQuery } from '../api/systemSettingsApi';
import { DiskReportSection } from '../components/DiskReportSection';
import { FileCleanupSection } from '../components/FileCleanupSection';
import { MarketDataJobsSection } from '../components/MarketDataJobsSection';
import { ReconcileSection } from '../components/ReconcileSection';
import { SettingsForm } from '../components/SettingsForm';
import { TestEmailSection } from '../components/TestEmailSection';

function Settings() {
  const { data, error, isLoading } = useGetSystemSettingsQuery();
  return (
    <Section title="Settings">
      {isLoading && (
        <Center py="md">
          <Loader aria-label="Loading settings" />
        </Center>
      )}
      {error && (
        <Alert color="red" role="alert" title="Unable to load the settings">
          {errorMessageOf(error)}
        </Alert>
      )}
      {data && (
        <SaveFlowProvider>
          <SettingsForm settings={data} />
        </SaveFlowProvider>
      )}
    </Section>
  );
}

/** /system-settings (spec section 2, admin only): the settings, then the tools, each in its own section. */
export function SystemSettingsRoute() {
  const user = useAppSelector(selectSessionUser);
  if (!isAdmin(user)) return <NotAllowed />;
  return (
    <Page title="System Settings">
      <Stack gap="lg">
        <Settings />
        <FileCleanupSection />
        <ReconcileSection />
        <MarketDataJobsSection />
        <DiskReportSection />
        <TestEmailSection />
      </Stack>
    </Page>
  );
}
