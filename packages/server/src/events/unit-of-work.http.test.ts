import type { LiveEvent, NewDomainEvent } from '@fleetkeep/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DB, type TestServer } from '../test/harness.js';
import { announce, unitOfWork } from './unit-of-work.js';

/**
 * The unit of work (events/unit-of-work.ts; DESIGN §6 "Events"): domain events go into the outbox in the
 * write's own transaction, live events reach the bus only after the commit and in the order queued, the
 * outbox is published after them, and a rollback publishes nothing at all.
 */
describe(`one unit of work on ${TEST_DB}`, () => {
  let t: TestServer;
  let fleetId: number;
  /** What the bus delivered, and each outbox publication, in one timeline. */
  let timeline: string[];
  let delivered: string[];
  let stop: (() => void)[] = [];
  let marker = 0;

  beforeAll(async () => {
    t = await startTestServer();
    fleetId = t.demo.fleetId;
  });
  afterAll(() => t?.close());
  afterEach(() => {
    for (const s of stop) s();
    stop = [];
  });

  /**
   * Records, from now on, the probe events handed to the bus and each outbox publication in one timeline
   * (in call order: on PostgreSQL deliveries come back later, through LISTEN), and the probes delivered.
   */
  function watch() {
    timeline = [];
    delivered = [];
    const { bus, outbox } = t.server.ctx;
    const probeOf = (e: LiveEvent) => (e.d as { probe?: string } | null)?.probe;
    stop.push(
      bus.subscribe((e) => {
        const name = probeOf(e);
        if (name) delivered.push(name);
      }),
    );
    const publishMany = bus.publishMany;
    bus.publishMany = async (events) => {
      for (const e of events) {
        const name = probeOf(e);
        if (name && !name.startsWith('end ')) timeline.push(name);
      }
      return publishMany.call(bus, events);
    };
    const publish = outbox.publish;
    outbox.publish = (types) => {
      timeline.push('outbox');
      publish.call(outbox, types);
    };
    stop.push(() => {
      bus.publishMany = publishMany;
      outbox.publish = publish;
    });
  }
  /** The timeline without the publications of other writers (the status engine's timer, consumers). */
  const ours = (until: string) => {
    const end = timeline.indexOf(until);
    return [
      ...timeline.slice(0, end + 1).filter((x) => x !== 'outbox'),
      ...timeline.slice(end + 1).slice(0, 1),
    ];
  };

  const probe = (name: string): LiveEvent => ({ t: 'u', s: 'fleet', fid: fleetId, d: { probe: name } });
  /** A "fleet settings changed" event told apart from every other by its time. */
  const settingsEvent = (at: number): NewDomainEvent => ({
    type: 'fleet.settings',
    fid: fleetId,
    at,
    by: null,
    changed: ['n'],
  });
  const outboxRows = (at: number) =>
    t.server.ctx.db.kysely
      .selectFrom('domain_events')
      .select('event_id')
      .where('type', '=', 'fleet.settings')
      .where('at', '=', at)
      .execute();
  /** Lets the bus deliver (PostgreSQL: through LISTEN) what was published so far. */
  async function settle() {
    const end = `end ${++marker}`;
    await announce(t.server.ctx, probe(end));
    await expect.poll(() => delivered.includes(end), { timeout: 5000 }).toBe(true);
    delivered.splice(delivered.indexOf(end), 1);
  }

  it('publishes the queued live events only after the commit, in order, then the outbox', async () => {
    watch();
    const at = 1_000_000 + ++marker;
    const { ctx } = t.server;
    const result = await unitOfWork(ctx, async (trx, uow) => {
      await uow.record([settingsEvent(at)]);
      // The outbox row exists inside the transaction, before the commit.
      const inside = await trx.selectFrom('domain_events').select('id').where('at', '=', at).execute();
      expect(inside).toHaveLength(1);
      uow.emit(probe('first'));
      uow.afterCommit(async () => {
        // After the commit the write is visible outside its transaction.
        expect(await outboxRows(at)).toHaveLength(1);
        return [probe('read after commit')];
      });
      uow.emit(probe('last'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(timeline.filter((x) => x !== 'outbox')).toEqual([]);
      expect(delivered).toEqual([]);
      return 42;
    });
    expect(result).toBe(42);
    await settle();
    // The live events in order, then (next) the outbox.
    expect(ours('last')).toEqual(['first', 'read after commit', 'last', 'outbox']);
    expect(delivered).toEqual(['first', 'read after commit', 'last']);
    expect(await outboxRows(at)).toHaveLength(1);
  });

  it('publishes nothing and keeps no outbox row when the transaction rolls back', async () => {
    watch();
    const at = 2_000_000 + ++marker;
    const { ctx } = t.server;
    let stepRan = false;
    const failed = unitOfWork(ctx, async (_trx, uow) => {
      await uow.record([settingsEvent(at)]);
      uow.emit(probe('never'));
      uow.afterCommit(async () => {
        stepRan = true;
        return [probe('never either')];
      });
      throw new Error('refused');
    });
    await expect(failed).rejects.toThrow('refused');
    await settle();
    expect(timeline.filter((x) => x !== 'outbox')).toEqual([]);
    expect(delivered).toEqual([]);
    expect(stepRan).toBe(false);
    expect(await outboxRows(at)).toEqual([]);
  });

  it('publishes the outbox even when a step after the commit fails, and passes the failure on', async () => {
    watch();
    const at = 3_000_000 + ++marker;
    const failed = unitOfWork(t.server.ctx, async (_trx, uow) => {
      await uow.record([settingsEvent(at)]);
      uow.emit(probe('before the failure'));
      uow.afterCommit(async () => {
        throw new Error('read failed');
      });
      uow.emit(probe('after the failure'));
    });
    await expect(failed).rejects.toThrow('read failed');
    await settle();
    expect(ours('before the failure')).toEqual(['before the failure', 'outbox']);
    expect(delivered).toEqual(['before the failure']);
    // The write itself is committed.
    expect(await outboxRows(at)).toHaveLength(1);
  });

  it('leaves the outbox alone when the write recorded nothing, and names the types when told', async () => {
    watch();
    const types: (Iterable<string> | undefined)[] = [];
    const { outbox } = t.server.ctx;
    const publish = outbox.publish;
    outbox.publish = (recorded) => {
      types.push(recorded === undefined ? undefined : [...recorded]);
      publish.call(outbox, recorded);
    };
    try {
      await unitOfWork(t.server.ctx, async (_trx, uow) => {
        uow.emit(probe('only live'));
        await uow.record([]);
      });
      await unitOfWork(t.server.ctx, async (_trx, uow) => {
        uow.recorded(['unit.counters']);
        uow.recorded(['fleet.settings']);
      });
      await unitOfWork(t.server.ctx, async (_trx, uow) => {
        uow.recorded(['unit.counters']);
        uow.recorded();
      });
    } finally {
      outbox.publish = publish;
    }
    expect(types).toEqual([['unit.counters', 'fleet.settings'], undefined]);
  });

  it('announces many events in order, in parts', async () => {
    watch();
    const sent: number[] = [];
    const { bus } = t.server.ctx;
    const publishMany = bus.publishMany;
    bus.publishMany = async (events) => {
      sent.push(events.length);
      return publishMany.call(bus, events);
    };
    const names = Array.from({ length: 1200 }, (_, i) => `many ${i}`);
    try {
      await announce(t.server.ctx, names.map(probe));
    } finally {
      bus.publishMany = publishMany;
    }
    expect(sent).toEqual([500, 500, 200]);
    await settle();
    expect(timeline.filter((x) => x !== 'outbox')).toEqual(names);
    expect(delivered).toEqual(names);
  });
});
