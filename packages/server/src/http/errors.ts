import {
  ERROR_REASON,
  ERROR_STATUS,
  type ErrorBody,
  ErrorCode,
  type ErrorCodeValue,
  errorBody,
  type FieldIssue,
  type RecordRefusal,
  type RefusalDetails,
  UNAVAILABLE_RETRY_SECONDS,
} from '@fleetkeep/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform } from 'fastify-type-provider-zod';
import { isConnectionLost } from '../db/dialect/index.js';

/**
 * The one error type of the server; rendered once, by `installErrorHandling`, as `{error, reason,
 * details?}` (DESIGN §5). Built only by the named constructors below, so every code has its status and
 * every `details` is of the core contract `RefusalDetails`.
 */
export class AppError extends Error {
  readonly code: ErrorCodeValue;
  readonly details: RefusalDetails | undefined;
  constructor(code: ErrorCodeValue, reason?: string, details?: RefusalDetails) {
    super(reason ?? ERROR_REASON[code]);
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
  /** The same error with other details (imports name the file's rows instead of the batch's). */
  withDetails(details: RefusalDetails | undefined): AppError {
    return new AppError(this.code, this.message, details);
  }
}

/** 401 `{error: 1}` (spec §8): no valid session. */
export const noSession = () => new AppError(ErrorCode.noSession);
/** 413 `{error: 2}` (spec §8): attachments or a body too large. */
export const tooLarge = (reason?: string) => new AppError(ErrorCode.tooLarge, reason);
/** 400 `{error: 3}` (spec §8): the fleet cannot be set. */
export const fleetCannotBeSet = () => new AppError(ErrorCode.fleetCannotBeSet);
/** 400 `{error: 4}` (spec §8) with every failing field (core `fieldIssue`). */
export const invalidInput = (issues?: FieldIssue[], reason = 'Invalid input') =>
  new AppError(ErrorCode.invalidInput, reason, issues);
export const notFound = (what = 'Not found') => new AppError(ErrorCode.notFound, what);
/** 500 `{error: 6}`: a fault that is not the client's (DESIGN §5). */
export const unexpected = (reason?: string) => new AppError(ErrorCode.unexpected, reason);
export const accessDenied = (reason?: string) => new AppError(ErrorCode.accessDenied, reason);
export const wrongCredentials = () => new AppError(ErrorCode.wrongCredentials);
/** 401 `{error: 8}` with a reason: a shared secret other than a password (a forwarding token) missing or wrong. */
export const wrongToken = (reason: string) => new AppError(ErrorCode.wrongCredentials, reason);
/** 429 `{error: 9}`: `retryAfter` seconds go out in the details and as `Retry-After`. */
export const tooManyRequests = (reason: string, retryAfter: number) =>
  new AppError(ErrorCode.tooManyRequests, reason, { retry_after: retryAfter });
/** 409 `{error: 10}` with the records refused (core `recordRefusal`), when there are some to name. */
export const conflict = (reason: string, refusals?: RecordRefusal[]) =>
  new AppError(ErrorCode.conflict, reason, refusals);

function body(code: ErrorCodeValue, reason: string, details?: RefusalDetails): ErrorBody {
  return details === undefined ? { error: code, reason } : { error: code, reason, details };
}

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * The API description's transform: every described route also documents its failures, any status,
 * as the core `errorBody` (DESIGN §5) with `RefusalDetails`.
 */
export function describeWithErrorReply(input: TransformInput) {
  const { schema } = input;
  if (!schema || schema.hide) return jsonSchemaTransform(input);
  const response = { default: errorBody, ...(schema.response as object | undefined) };
  return jsonSchemaTransform({ ...input, schema: { ...schema, response } });
}

/** Message of a detail on a key a strict contract does not know. */
export const UNKNOWN_FIELD = 'Unknown field';

/** Seconds to wait that a 429 names in its details (`retry_after`), for the `Retry-After` header. */
function retryAfterOf(details: RefusalDetails | undefined): number | undefined {
  if (!details || Array.isArray(details) || !('retry_after' in details)) return undefined;
  const value = details.retry_after;
  return Number.isFinite(value) && value > 0 ? Math.ceil(value) : undefined;
}

/**
 * Faults of the multipart parser (busboy) over a malformed body, e.g. `multipart/form-data` without a
 * boundary: the client's fault, 400, never 500.
 */
const MALFORMED_MULTIPART =
  /^(Multipart: |Malformed |Boundary required|Unexpected end of|.* terminated early)/;
export const MALFORMED_MULTIPART_REASON = 'Malformed multipart body';

function isMalformedMultipart(error: FastifyError, contentType: string | undefined): boolean {
  if (!/^multipart\//i.test(contentType ?? '')) return false;
  // A body that ends inside a part closes the file stream early (the client's fault, not ours).
  return error.code === 'ERR_STREAM_PREMATURE_CLOSE' || MALFORMED_MULTIPART.test(error.message ?? '');
}

/**
 * A full disk: SQLite's SQLITE_FULL, PostgreSQL's disk_full (SQLSTATE 53100), and
 * ENOSPC or EDQUOT of a file write, also when wrapped as another error's `cause`.
 */
const DISK_FULL = new Set(['SQLITE_FULL', '53100', 'ENOSPC', 'EDQUOT']);

export function isDiskFull(err: unknown): boolean {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++, e = e.cause as typeof e) {
    if (typeof e.code === 'string' && DISK_FULL.has(e.code)) return true;
  }
  return false;
}

/** Maps every failure (ours, Fastify's, validation, unknown route) to the API error shape. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler<Error>((error, request, reply) => {
    if (error instanceof AppError) {
      const wait = error.status === 429 ? retryAfterOf(error.details) : undefined;
      if (wait !== undefined) reply.header('retry-after', String(wait));
      return reply.status(error.status).send(body(error.code, error.message, error.details));
    }
    const err = error as FastifyError;
    if (isMalformedMultipart(err, request.headers['content-type'])) {
      return reply.status(400).send(body(ErrorCode.invalidInput, MALFORMED_MULTIPART_REASON));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.flatMap((v): FieldIssue[] => {
        const field = [err.validationContext, ...v.instancePath.split('/').filter(Boolean)].join('.');
        // A strict contract names each key it does not know, on the key's own field.
        const unknown = (v.params as { keys?: unknown } | undefined)?.keys;
        if (v.keyword === 'unrecognized_keys' && Array.isArray(unknown) && unknown.length > 0)
          return unknown.map((key) => ({ field: `${field}.${String(key)}`, message: UNKNOWN_FIELD }));
        return [{ field, message: v.message ?? 'Invalid value' }];
      });
      return reply.status(400).send(body(ErrorCode.invalidInput, 'Invalid input', details));
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
      case 'FST_FILES_LIMIT':
        return reply.status(413).send(body(ErrorCode.tooLarge, 'Request body is too large'));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.status(415).send(body(ErrorCode.invalidInput, 'Unsupported content type'));
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.status(400).send(body(ErrorCode.invalidInput, 'Empty JSON body'));
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return reply.status(400).send(body(ErrorCode.invalidInput, 'Invalid json'));
    }
    if (err instanceof SyntaxError || err.statusCode === 400) {
      return reply.status(400).send(body(ErrorCode.invalidInput, 'Invalid json'));
    }
    if (err.statusCode === 429) {
      return reply.status(429).send(body(ErrorCode.tooManyRequests, ERROR_REASON[ErrorCode.tooManyRequests]));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(body(ErrorCode.invalidInput, err.message));
    }
    // PostgreSQL refusing a value of the request (U+0000 in a query string or form field, a number past
    // its column): the client's input, 400 as on SQLite's side of the contract, never 500.
    const sqlState = (err as { code?: unknown }).code;
    if (sqlState === '22021' || sqlState === '22P05') {
      return reply
        .status(400)
        .send(body(ErrorCode.invalidInput, 'Text contains a character that cannot be stored'));
    }
    if (sqlState === '22003') {
      return reply.status(400).send(body(ErrorCode.invalidInput, 'Number out of range'));
    }
    // The write was not stored (SQLite rolled its transaction back): 507 {error: 11}, not an unexpected
    // fault; the operator must free space, and the same process writes again once there is some.
    if (isDiskFull(err)) {
      request.log.error({ requestId: request.id, code: sqlState, reason: err.message }, 'disk full');
      return reply
        .status(ERROR_STATUS[ErrorCode.storageFull])
        .send(body(ErrorCode.storageFull, ERROR_REASON[ErrorCode.storageFull]));
    }
    // A lost database connection (pg_terminate_backend, a failover): the client was destroyed and a
    // read tried again once (db/pg-pool.ts); what still failed, e.g. a write whose outcome is unknown,
    // is temporary: 503 {error: 12} with Retry-After, not a fault of ours.
    if (isConnectionLost(err)) {
      request.log.warn(
        { requestId: request.id, code: sqlState, reason: err.message },
        'database connection lost',
      );
      reply.header('retry-after', String(UNAVAILABLE_RETRY_SECONDS));
      return reply
        .status(ERROR_STATUS[ErrorCode.unavailable])
        .send(body(ErrorCode.unavailable, ERROR_REASON[ErrorCode.unavailable]));
    }
    request.log.error({ err, requestId: request.id }, 'unexpected fault');
    return reply
      .status(500)
      .send(body(ErrorCode.unexpected, ERROR_REASON[ErrorCode.unexpected], { request_id: request.id }));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(body(ErrorCode.notFound, `No route ${request.method} ${request.url.split('?')[0]}`));
  });
}
