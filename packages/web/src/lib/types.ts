/** Wire shapes the shell consumes (server `auth-reply.ts`, `user/routes.ts`). */

export interface Fleet {
  id: number;
  n: string;
  acl: number;
  tz: number;
  cur: string;
  ms: number;
  fm: number;
  aid: number;
  s: number;
}

export interface UserSettings {
  lang: string;
  dateFormat: string;
  timeFormat: string;
  notification: { enabled: number };
  layer: string;
  [key: string]: unknown;
}

export interface AuthReply {
  session: string;
  user: { id: number; nm: string };
  admin: number | boolean;
  su: number | boolean;
  unit_types: { id: number; n: string }[];
  docs: { url: string; langs: string[] } | null;
  model: { s: UserSettings };
  fleets: Fleet[];
  fid: number | null;
}

export type TokenRight = 'none' | 'view' | 'manage';
export interface TokenRights {
  intervals: TokenRight;
  services: TokenRight;
  archive: TokenRight;
}

export interface ApiToken {
  id: number;
  description: string;
  rights: TokenRights;
  created: number;
  last_used: number | null;
  requests: number;
  expires: number | null;
}
