import { lazy, Suspense } from 'react';
import { useAppSelector } from '@/app/hooks';
import { CenteredLoader } from '@/components/CenteredLoader';
import { isStaffUser } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';

const StaffDashboard = lazy(async () => ({
  default: (await import('@/features/staff-dashboard/routes/StaffDashboardRoute')).StaffDashboardRoute,
}));
const ClientDashboard = lazy(async () => ({
  default: (await import('@/features/client-dashboard/routes/ClientDashboardRoute')).ClientDashboardRoute,
}));

/** / (exact): the staff dashboard for admins and report-runners, otherwise the client dashboard. */
export function HomeRoute() {
  const user = useAppSelector(selectSessionUser);
  return (
    <Suspense fallback={<CenteredLoader />}>
      {isStaffUser(user) ? <StaffDashboard /> : <ClientDashboard />}
    </Suspense>
  );
}
