import {
  type ImportDelimiter,
  type ImportEncoding,
  type ImportKind,
  type ImportParseReply,
  type ImportResultReply,
  type ImportRowsBody,
  importRoutesOfKind,
} from '@fleetkeep/core';
import { ApiError, getSession } from '../../lib/api.ts';
import { fillPath, queryString } from '../../lib/client.ts';

/**
 * The import calls. They go through XMLHttpRequest rather than the JSON client because a file of up to
 * 10 MB and a body of 10,000 rows report their upload progress to the screen (spec §5 "Import"). URLs come from the core descriptors (core routes/imports.ts).
 */
function send<T>(url: string, body: Blob | string, type: string, onProgress?: (share: number) => void) {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const ssid = getSession();
    if (ssid) xhr.setRequestHeader('Authorization', `SSID ${ssid}`);
    xhr.setRequestHeader('Content-Type', type);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let parsed: { error?: number; reason?: string; details?: unknown } | undefined;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        reject(new ApiError(418, 'Invalid json', xhr.status));
        return;
      }
      if (xhr.status >= 200 && xhr.status < 300 && parsed && parsed.error === undefined) resolve(parsed as T);
      else
        reject(
          new ApiError(parsed?.error ?? -1, parsed?.reason ?? 'Invalid json', xhr.status, parsed?.details),
        );
    };
    xhr.onerror = () => reject(new ApiError(-4, 'Network problems', 0));
    xhr.send(body);
  });
}

export interface ParseOptions {
  delimiter?: ImportDelimiter;
  encoding?: ImportEncoding;
  sheet?: string;
}

export function parseFile(
  fid: number,
  kind: ImportKind,
  file: File,
  options: ParseOptions,
  onProgress?: (s: number) => void,
) {
  const query: Record<string, string> = { name: file.name };
  for (const [k, v] of Object.entries(options)) if (v) query[k] = v;
  const { path } = fillPath(importRoutesOfKind[kind].parse, [fid]);
  return send<ImportParseReply>(`${path}${queryString(query)}`, file, 'application/octet-stream', onProgress);
}

export function importRows(
  fid: number,
  kind: ImportKind,
  body: ImportRowsBody,
  onProgress?: (s: number) => void,
) {
  return send<ImportResultReply>(
    fillPath(importRoutesOfKind[kind].rows, [fid]).path,
    JSON.stringify(body),
    'application/json',
    onProgress,
  );
}
