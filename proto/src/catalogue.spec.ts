import { allTopics, dlqTopic, EventCatalogue, replyTopic, RequestCatalogue, Topics } from './index';

describe('topic catalogue', () => {
  it('plans a reply and a dlq topic for every request topic, and a dlq for every event', () => {
    const names = allTopics().map((t) => t.name);
    for (const topic of Object.keys(RequestCatalogue)) {
      expect(names).toContain(topic);
      expect(names).toContain(replyTopic(topic));
      expect(names).toContain(dlqTopic(topic));
    }
    for (const topic of Object.keys(EventCatalogue)) {
      expect(names).toContain(topic);
      expect(names).toContain(dlqTopic(topic));
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it("answers every request of a service on that service's one reply topic", () => {
    const names = allTopics().map((t) => t.name);
    const services = new Set(Object.values(RequestCatalogue).map((spec) => spec.service));
    for (const [topic, spec] of Object.entries(RequestCatalogue))
      expect(replyTopic(topic)).toBe(`${spec.service}.reply`);
    expect(names.filter((n) => n.endsWith('.reply')).sort()).toEqual(
      [...services].map((s) => `${s}.reply`).sort(),
    );
  });

  it('gives reply topics at least as many partitions as gateway instances', () => {
    const plan = allTopics({ replyPartitions: 6 });
    const reply = plan.find((t) => t.name === replyTopic(Topics.UsersAuthenticate));
    expect(reply?.partitions).toBe(6);
  });

  it('catalogues every topic constant', () => {
    for (const topic of Object.values(Topics)) {
      expect(topic in RequestCatalogue || topic in EventCatalogue).toBe(true);
    }
  });

  it('names request topics <service>.<verb-noun> and events <entity>.<past-tense>', () => {
    for (const [topic, spec] of Object.entries(RequestCatalogue)) {
      expect(topic.startsWith(`${spec.service}.`)).toBe(true);
    }
    for (const topic of Object.keys(EventCatalogue)) {
      expect(topic).toMatch(/^[a-z-]+\.[a-z-]+ed$/);
    }
  });
});
