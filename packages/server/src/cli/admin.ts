import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { ErrorCode, PASSWORD_MIN_LENGTH, setupBody, TZ_DST_EUROPE, TZ_DST_SOUTH } from '@fleetkeep/core';
import { endedSessionEvents } from '../auth/sessions.js';
import { loadConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { type Db, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { PgBus } from '../events/pg-bus.js';
import { announce } from '../events/unit-of-work.js';
import { AppError } from '../http/errors.js';
import {
  ALREADY_SET_UP,
  createFirstSuperUser,
  generatePassword,
  resetPassword,
} from '../modules/setup/service.js';

/**
 * `npm run admin -- <command>` for headless installs: the first super user without the
 * web's set-up screen, and a new password for a locked-out administrator. Reads the server's
 * configuration (`DATA_DIR`, `DATABASE_URL`) and migrates the database first. Passwords are never logged;
 * a generated one is printed once, on stdout.
 */

const USAGE = `Usage:
  npm run admin -- create-superuser --login <login> --name <full name> --organisation <name>
                   [--password <password> | --password-stdin] [--lang en] [--distance km|miles]
                   [--fuel litres|gallons] [--utc-offset +02:00] [--dst none|europe|south] [--currency EUR]
  npm run admin -- reset-password <login> [--password <password> | --password-stdin]

Without --password or --password-stdin a password is generated and printed.
Missing text options are asked for when the terminal is interactive.
A negative offset needs the = form: --utc-offset=-05:00.`;

/** A failure the operator can fix: printed without a stack, exit code 1. */
class CliError extends Error {}

type Flags = Record<string, string | boolean | undefined>;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The password from the flags; undefined when neither flag is given. */
async function givenPassword(flags: Flags): Promise<string | undefined> {
  if (flags.password !== undefined && flags['password-stdin'])
    throw new CliError('Give --password or --password-stdin, not both.');
  if (flags['password-stdin']) return readStdin();
  return typeof flags.password === 'string' ? flags.password : undefined;
}

/** A text option, asked for on an interactive terminal when missing. */
async function textOption(flags: Flags, name: string, question: string): Promise<string> {
  const value = flags[name];
  if (typeof value === 'string') return value;
  if (!process.stdin.isTTY || flags['password-stdin']) throw new CliError(`Missing --${name}.\n\n${USAGE}`);
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return await rl.question(`${question}: `);
  } finally {
    rl.close();
  }
}

/** `--utc-offset ±HH:MM` and `--dst` as a fleet `tz` code (spec §5 "Time zone"; core timezone.ts). */
export function tzFromOptions(offset: string, dst: string): number {
  const m = /^([+-])?(\d{1,2})(?::(\d{2}))?$/.exec(offset.trim());
  if (!m) throw new CliError(`--utc-offset must look like +02:00 or -05:30, got "${offset}"`);
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
  const flags = { none: 0, europe: TZ_DST_EUROPE, south: TZ_DST_SOUTH }[dst];
  if (flags === undefined) throw new CliError(`--dst must be none, europe or south, got "${dst}"`);
  return ((minutes & 0xffff) | flags) >>> 0;
}

function choice<T>(flag: string, value: string, options: Record<string, T>): T {
  const picked = options[value];
  if (picked === undefined)
    throw new CliError(`--${flag} must be one of ${Object.keys(options).join(', ')}, got "${value}"`);
  return picked;
}

async function createSuperuser(db: Db, flags: Flags): Promise<void> {
  const login = await textOption(flags, 'login', 'Login of the super user');
  const name = await textOption(flags, 'name', 'Full name of the super user');
  const organisation = await textOption(flags, 'organisation', 'Organisation');
  const given = await givenPassword(flags);
  const password = given ?? generatePassword();
  const parsed = setupBody.safeParse({
    organisation,
    name,
    login,
    password,
    lang: flags.lang ?? 'en',
    ms: choice('distance', String(flags.distance ?? 'km'), { km: 0, miles: 1 }),
    fm: choice('fuel', String(flags.fuel ?? 'litres'), { litres: 1, gallons: 2 }),
    tz: tzFromOptions(String(flags['utc-offset'] ?? '+00:00'), String(flags.dst ?? 'none')),
    cur: typeof flags.currency === 'string' ? flags.currency : undefined,
  });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new CliError(`Invalid input:\n${lines.join('\n')}`);
  }
  try {
    await createFirstSuperUser(db, parsed.data, async () => undefined);
  } catch (err) {
    if (err instanceof AppError && err.code === ErrorCode.conflict)
      throw new CliError(
        `${ALREADY_SET_UP}: a user exists, so no super user was created. ` +
          'Use "npm run admin -- reset-password <login>" to regain access.',
      );
    throw err;
  }
  console.log(`Created super user "${parsed.data.login}", account and fleet "${parsed.data.organisation}".`);
  if (given === undefined) console.log(`Password: ${password}`);
}

async function resetUserPassword(db: Db, login: string | undefined, flags: Flags): Promise<void> {
  if (!login) throw new CliError(`reset-password needs a login.\n\n${USAGE}`);
  const given = await givenPassword(flags);
  const password = given ?? generatePassword();
  if (password.length < PASSWORD_MIN_LENGTH)
    throw new CliError(`The password needs at least ${PASSWORD_MIN_LENGTH} characters.`);
  const done = await resetPassword(db, login, password);
  if (!done) throw new CliError(`No user with the login "${login}".`);
  // On PostgreSQL the running instances hear of the ended sessions and close their sockets (user event 32).
  if (db.url) {
    const bus = await PgBus.start(db.url, () => undefined);
    try {
      await announce({ bus } as Pick<AppContext, 'bus'> as AppContext, endedSessionEvents(done.ended));
    } finally {
      await bus.close();
    }
  }
  console.log(`New password set for "${login}"; ${done.ended.sessions.length} session(s) ended.`);
  if (given === undefined) console.log(`Password: ${password}`);
}

async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      login: { type: 'string' },
      name: { type: 'string' },
      organisation: { type: 'string' },
      password: { type: 'string' },
      'password-stdin': { type: 'boolean' },
      lang: { type: 'string' },
      distance: { type: 'string' },
      fuel: { type: 'string' },
      'utc-offset': { type: 'string' },
      dst: { type: 'string' },
      currency: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, arg] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  if (command !== 'create-superuser' && command !== 'reset-password')
    throw new CliError(`Unknown command "${command}".\n\n${USAGE}`);
  const config = loadConfig();
  const db = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'fleetkeep.sqlite'),
  });
  try {
    await migrateToLatest(db);
    if (command === 'create-superuser') await createSuperuser(db, values);
    else await resetUserPassword(db, arg, values);
  } finally {
    await db.close();
  }
}

run(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof CliError || (err instanceof TypeError && 'code' in err)) {
    // Operator errors (and parseArgs' unknown or malformed options): the message only.
    console.error(err.message);
  } else {
    console.error('admin failed:', err);
  }
  process.exit(1);
});
