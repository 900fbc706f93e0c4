import { ApiError, getSession } from './api.ts';

/**
 * File transfer of attachments (services and fuel fillings, spec §5 "Attachments"). The server
 * authenticates every `/api` call by the `Authorization: SSID` header only (no cookie, no `?sid=`), so a
 * plain link cannot download: files are fetched and handed to the browser as a blob. Uploads go through
 * XMLHttpRequest for upload progress (spec §7 "Uploads": multipart with the SSID header).
 */

export interface UploadHandle<T> {
  /** The record's attachments after the upload (the reply's `attachments`). */
  promise: Promise<T[]>;
  abort: () => void;
}

/** POST multipart/form-data with one `file` part per file; `onProgress` gets 0…1. */
export function uploadFiles<T>(
  path: string,
  files: readonly File[],
  onProgress: (ratio: number) => void,
): UploadHandle<T> {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<T[]>((resolve, reject) => {
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
      let data: { error?: number; reason?: string; details?: unknown; attachments?: T[] };
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
      resolve(data.attachments ?? []);
    };
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** Fetches a file with the session header and saves it under its original name. */
export async function downloadFile(path: string, name: string): Promise<void> {
  const session = getSession();
  const res = await fetch(path, { headers: session ? { Authorization: `SSID ${session}` } : {} });
  if (!res.ok) {
    let reason = res.statusText;
    try {
      reason = ((await res.json()) as { reason?: string }).reason ?? reason;
    } catch {
      // not JSON: keep the status text
    }
    throw new ApiError(res.status === 404 ? 5 : res.status, reason, res.status);
  }
  const url = URL.createObjectURL(await res.blob());
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
