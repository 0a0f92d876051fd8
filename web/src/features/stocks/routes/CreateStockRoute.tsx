import { useAppSelector } from '@/app/hooks';
import { NotAllowed } from '@/components/NotAllowed';
import { isAdmin } from '@/lib/session/roles';
import { selectSessionUser } from '@/lib/session/sessionSlice';
import { StockEditor } from '../components/StockEditor';
import { StockConfigTab } from '../tabs';

/** /create (spec section 2): the Config tab, empty with the defaults; Save creates the stock. */
export function CreateStockRoute() {
  const user = useAppSelector(selectSessionUser);
  if (!isAdmin(user)) return <NotAllowed />;
  return (
    <StockEditor stock={null} tabs={[]}>
      <StockConfigTab stock={null} />
    </StockEditor>
  );
}
