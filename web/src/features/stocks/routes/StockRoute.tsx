import { useParams } from 'react-router-dom';
import { StockPage } from '../components/StockPage';

/** /stocks/{ticker:exchange} and /stocks/{ticker:exchange}/{tab} (spec section 2). */
export function StockRoute() {
  const { combinedTicker = '', tab } = useParams();
  return <StockPage key={combinedTicker} combinedTicker={combinedTicker} tabSegment={tab} />;
}
