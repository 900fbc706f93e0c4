import { ERROR_REASON, ERROR_STATUS, ErrorCode, type ErrorCodeValue, type FieldIssue } from '@fleetkeep/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

/** The one error type of the server; rendered once, by `installErrorHandling`, as `{error, reason}`. */
export class AppError extends Error {
  readonly code: ErrorCodeValue;
  readonly details: unknown;
  constructor(code: ErrorCodeValue, reason?: string, details?: unknown) {
    super(reason ?? ERROR_REASON[code]);
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** 400 `{error: 4}` with the failing fields in the one `details` shape of every route (core `fieldIssue`). */
export const invalidInput = (details?: FieldIssue[], reason = 'Invalid input') =>
  new AppError(ErrorCode.invalidInput, reason, details);
export const notFound = (what = 'Not found') => new AppError(ErrorCode.notFound, what);
export const accessDenied = () => new AppError(ErrorCode.accessDenied);
export const conflict = (reason: string, details?: unknown) =>
  new AppError(ErrorCode.conflict, reason, details);

function body(code: ErrorCodeValue, reason: string, details?: unknown) {
  return details === undefined ? { error: code, reason } : { error: code, reason, details };
}

/** Maps every failure (ours, Fastify's, validation, unknown route) to the API error shape. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler<Error>((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send(body(error.code, error.message, error.details));
    }
    const err = error as FastifyError;
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        field: [err.validationContext, ...v.instancePath.split('/').filter(Boolean)].join('.'),
        message: v.message,
      }));
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
