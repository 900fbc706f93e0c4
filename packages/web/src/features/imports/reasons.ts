import { ImportFileError } from '@fleetkeep/core';
import type { i18n as I18n, TFunction } from 'i18next';
import { ApiError } from '../../lib/api.ts';
import { readRefusal, refusalMessage } from '../../lib/refusal.ts';

/** Looks like an i18n key (`imports.file.badXlsx`) rather than a sentence. */
const KEY = /^[a-z]+(\.[A-Za-z0-9_]+)+$/;

/**
 * The words of an import's reason: the translation of a known key; a server's sentence as it came; never
 * a raw key on the screen (an unknown key reads as "the file could not be read").
 */
export function reasonText(t: TFunction, i18n: I18n, reason: string): string {
  if (i18n.exists(reason)) return t(reason);
  return KEY.test(reason) ? t(ImportFileError.failed) : reason;
}

/** The reason key of a refused parse call: its detail's message (the key), else its reason. */
export function refusalKey(e: unknown): string {
  if (!(e instanceof ApiError)) return ImportFileError.failed;
  return refusalMessage(readRefusal(e));
}
