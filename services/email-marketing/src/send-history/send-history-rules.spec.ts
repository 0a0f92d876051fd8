import { deliveryStates } from './send-history-rules';

const A = '7d7c1f0e-5b3c-4a53-9d59-0c0d8f6f0a01';
const B = '7d7c1f0e-5b3c-4a53-9d59-0c0d8f6f0a02';
const at = (iso: string) => new Date(iso);

describe('send history rules', () => {
  it("groups the entries by announcement, in the rows' order, sent with the latency the rows carry", () => {
    expect(
      deliveryStates([
        {
          sendGuid: A,
          acceptedAt: at('2026-03-22T00:00:00Z'),
          email: 'a@x.example',
          alertLatencyMs: 900,
        },
        {
          sendGuid: A,
          acceptedAt: at('2026-03-22T00:00:01Z'),
          email: 'b@x.example',
          alertLatencyMs: 900,
        },
        {
          sendGuid: B,
          acceptedAt: at('2026-03-23T00:00:00Z'),
          email: 'Mailchimp-type list l1',
          alertLatencyMs: null,
        },
      ]),
    ).toEqual([
      {
        sendGuid: A,
        sent: true,
        sendHistory: [
          { timestamp: '2026-03-22T00:00:00.000Z', emailAddress: 'a@x.example' },
          { timestamp: '2026-03-22T00:00:01.000Z', emailAddress: 'b@x.example' },
        ],
        alertLatencyMs: 900,
      },
      {
        sendGuid: B,
        sent: true,
        sendHistory: [{ timestamp: '2026-03-23T00:00:00.000Z', emailAddress: 'Mailchimp-type list l1' }],
        alertLatencyMs: null,
      },
    ]);
  });

  it('answers nothing for no entries: an announcement never mailed is left out', () => {
    expect(deliveryStates([])).toEqual([]);
  });
});
