import { Outlet } from 'react-router-dom';
import { useAppSelector } from '@/app/hooks';
import { NotAllowed } from '@/components/NotAllowed';
import { canEditUsers } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';

/** /users (exact) needs EditUsers (or Admin); others see a 'not allowed' message. */
export function RequireEditUsers() {
  const user = useAppSelector(selectSessionUser);
  return canEditUsers(user) ? <Outlet /> : <NotAllowed />;
}
