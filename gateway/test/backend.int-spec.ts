import { MailBackend, PUBLIC_BASE_URL, SharedBackend, startMailBackend } from './gateway-harness';
import { busSecretsCases } from './backend/bus-secrets.cases';
import { commentsCases } from './backend/comments.cases';
import { emailMarketingCases } from './backend/email-marketing.cases';
import { fuzzCases } from './backend/fuzz.cases';
import { invoicingCases } from './backend/invoicing.cases';
import { reportsCases } from './backend/reports.cases';
import { requestLogCases } from './backend/request-log.cases';
import { routeMatrixCases } from './backend/route-matrix.cases';
import { serviceOrdersCases } from './backend/service-orders.cases';
import { specClientCases } from './backend/spec-client.cases';

jest.setTimeout(600_000);

/**
 * The gateway's contract tests against every service behind it: users, stocks, announcements,
 * email-marketing (with the providers' stand-in), invoicing (the accounting stand-in) and reports (the
 * market-data stand-in), each its own process on the real broker and database, and an SMTP sink. This file
 * starts them once (nine processes and two seeds, started for each of nine files before), and each group of
 * cases in backend/, named by what it covers, makes its own gateway, sessions and records, with tickers and
 * addresses unique to it (runId). A group starts with the sink empty; what the services hold stays, so a
 * group counts only its own records.
 *
 * Specs that stop a service, or run one with other settings (polling, the ASX stand-in), keep files and
 * backends of their own (announcements, auth, whole-chain, ...).
 */
describe('the gateway against every service, one backend', () => {
  let backend: MailBackend | undefined;
  const shared: SharedBackend = {
    backend() {
      if (!backend) throw new Error('the shared backend did not start (see the beforeAll above)');
      backend.sink.clear();
      return backend;
    },
  };

  beforeAll(async () => {
    backend = await startMailBackend(PUBLIC_BASE_URL, {
      providers: true,
      // The route table's specs subscribe from one address many times; no group tests the per-IP limit.
      emailEnv: { SUBSCRIBE_MAX_PER_IP: '1000' },
    });
  }, 300_000);

  afterAll(async () => {
    await backend?.stop();
  });

  busSecretsCases(shared);
  commentsCases(shared);
  emailMarketingCases(shared);
  invoicingCases(shared);
  reportsCases(shared);
  requestLogCases(shared);
  serviceOrdersCases(shared);
  specClientCases(shared);
  routeMatrixCases(shared);
  fuzzCases(shared);
});
