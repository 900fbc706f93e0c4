import { ApiError, getSession } from './api.ts';

/**
 * File transfer of attachments (services and fuel fillings, spec §5 "Attachments"). The server
 * authenticates every `/api` call by the `Authorization: SSID` header only (no cookie, no `?sid=`), so a
 * plain link cannot download: files are fetched and handed to the browser as a blob. Uploads go through
 * XMLHttpRequest for upload progress (spec §7 "Uploads": multipart with the SSID header).
 */

export interface UploadHandle<T> {
  /** The upload's reply (for attachments, the record's files after the upload). */
  promise: Promise<T>;
  abort: () => void;
}

/** POST multipart/form-data with one `file` part per file; `onProgress` gets 0…1 (lib/client.ts `upload`). */
export function uploadFiles<T>(
  path: string,
  files: readonly File[],
  onProgress: (ratio: number) => void,
): UploadHandle<T> {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T>((resolve, reject) => {
    const form = new FormData();
    for (const file of files) form.append('file', file, file.name);
    xhr.open('POST', path);
    const session = getSession();
    if (session) xhr.setRequestHeader('Authorization', `SSID ${session}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(-4, 'Network problems', 0));
    xhr.onabort = () => reject(new ApiError(-4, 'Aborted', 0));
    xhr.onload = () => {
      let data: { error?: number; reason?: string; details?: unknown };
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : {};
      } catch {
        // Spec §8: an upload reply that is not JSON is error -1 'Invalid json'.
        reject(new ApiError(-1, 'Invalid json', xhr.status));
        return;
      }
      if (xhr.status !== 200 || (typeof data.error === 'number' && data.error !== 0)) {
        const code = typeof data.error === 'number' ? data.error : xhr.status === 413 ? 2 : xhr.status;
        reject(new ApiError(code, data.reason ?? xhr.statusText, xhr.status, data.details));
        return;
      }
      onProgress(1);
      resolve(data as T);
    };
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** The `{error, reason}` of a failed download as an ApiError (404 → 5, spec §8). */
async function downloadFailure(res: Response): Promise<ApiError> {
  let reason = res.statusText;
  let code: number | undefined;
  try {
    const body = (await res.json()) as { error?: unknown; reason?: string };
    reason = body.reason ?? reason;
    if (typeof body.error === 'number' && body.error !== 0) code = body.error;
  } catch {
    // not JSON: keep the status text
  }
  return new ApiError(code ?? (res.status === 404 ? 5 : res.status), reason, res.status);
}

/** Fetches a file with the session header and saves it under its original name. */
export async function downloadFile(path: string, name: string): Promise<void> {
  const session = getSession();
  const res = await fetch(path, { headers: session ? { Authorization: `SSID ${session}` } : {} });
  if (!res.ok) throw await downloadFailure(res);
  saveBlob(await res.blob(), name);
}

/**
 * The file name a `Content-Disposition` header gives (RFC 6266: `filename*=UTF-8''…` before
 * `filename="…"`), without path parts; null when it names none.
 */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (star?.[2]) {
    try {
      name = decodeURIComponent(star[2].trim());
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
    const raw = plain?.[1] ?? plain?.[2];
    if (raw !== undefined) name = raw.replace(/\\(.)/g, '$1').trim();
  }
  const base = name?.split(/[\\/]/).pop()?.trim();
  return base ? base : null;
}

export interface DownloadProgress {
  /** Bytes received so far. */
  loaded: number;
  /** The body's size from `Content-Length`; null when the server did not say (e.g. a compressed body). */
  total: number | null;
}

export interface DownloadHandle {
  /** The name the file was saved under. */
  promise: Promise<string>;
  /** Stops the download; the promise then rejects with ApiError -4 'Aborted' and nothing is saved. */
  abort: () => void;
}

/**
 * Fetches a generated file (a report export) with the session header, reading the body as it arrives
 * so that `onProgress` can follow it against `Content-Length`, and saves it under the server's name
 * (Content-Disposition) or `fallbackName`. Cancellable through the handle (AbortController).
 */
export function downloadWithProgress(
  path: string,
  fallbackName: string,
  onProgress: (progress: DownloadProgress) => void,
): DownloadHandle {
  const controller = new AbortController();
  const aborted = () => new ApiError(-4, 'Aborted', 0);
  const run = async (): Promise<string> => {
    const session = getSession();
    let res: Response;
    try {
      res = await fetch(path, {
        headers: session ? { Authorization: `SSID ${session}` } : {},
        signal: controller.signal,
      });
    } catch {
      throw controller.signal.aborted ? aborted() : new ApiError(-4, 'Network problems', 0);
    }
    if (!res.ok) throw await downloadFailure(res);
    const length = Number(res.headers.get('Content-Length'));
    const total = Number.isFinite(length) && length > 0 ? length : null;
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let loaded = 0;
    onProgress({ loaded, total });
    try {
      const reader = res.body?.getReader();
      if (reader) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          loaded += value.byteLength;
          onProgress({ loaded, total });
        }
      } else {
        const whole = new Uint8Array(await res.arrayBuffer());
        chunks.push(whole);
        loaded = whole.byteLength;
        onProgress({ loaded, total });
      }
    } catch {
      throw controller.signal.aborted ? aborted() : new ApiError(-4, 'Network problems', 0);
    }
    if (controller.signal.aborted) throw aborted();
    const name = dispositionFileName(res.headers.get('Content-Disposition')) ?? fallbackName;
    saveBlob(new Blob(chunks, { type: res.headers.get('Content-Type') ?? '' }), name);
    return name;
  };
  return { promise: run(), abort: () => controller.abort() };
}

/** Hands a blob to the browser as a download named `name`. */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    // Give the browser time to start the download before the URL goes.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}

/**
 * Fetches a stored file with the session header as an object URL, for showing an image (the unit photo,
 * docs/product.md "The vehicle profile"); the caller revokes it.
 */
export async function fetchObjectUrl(path: string, signal?: AbortSignal): Promise<string> {
  const session = getSession();
  const res = await fetch(path, { headers: session ? { Authorization: `SSID ${session}` } : {}, signal });
  if (!res.ok) throw await downloadFailure(res);
  return URL.createObjectURL(await res.blob());
}
