// Requests to the server, each saying the page's language so the answers'
// texts (messages, errors, reasons) come back in it.
import { langHeaders, t } from "./i18n.js";

function errorOf(status, data) {
  if (data && data.error) return data;
  return { error: { code: "http_error", message: t("server_error", { n: status }) } };
}

/** JSON in, JSON out; a failure is `{error: {code, message}}`, never a throw. */
export async function sendJSON(method, url, body) {
  let res;
  try {
    res = await fetch(url, {
      method,
      headers: { "Content-Type": "application/json", ...langHeaders() },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    return { error: { code: "network", message: t("net_error") } };
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok || data === null) return errorOf(res.status, data);
  return data;
}

/** A fresh id for a write that must happen once however often it is sent (a double tap). */
export function newRequestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));  // works on plain http on the LAN too
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The same id for the same body until it is acknowledged, so a retry records once. */
export function onceKey() {
  let last = null, id = null;
  return {
    idFor(body) {
      const key = JSON.stringify(body);
      if (key !== last) { last = key; id = newRequestId(); }
      return id;
    },
    done() { last = null; id = null; },
  };
}

export const postJSON = (url, body) => sendJSON("POST", url, body);
export const getJSON = (url) => sendJSON("GET", url);

/** Upload a file (and text `fields`) with progress; resolves to the JSON answer or `{error}`. */
export function uploadFile(url, field, file, fields, onProgress) {
  return new Promise((resolve) => {
    const form = new FormData();
    Object.keys(fields).forEach((k) => form.append(k, fields[k]));
    form.append(field, file, file.name || "photo.jpg");
    const xhr = new XMLHttpRequest();
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress("upload", e.loaded / e.total); };
    xhr.upload.onload = () => onProgress("read", 1);
    xhr.onerror = () => resolve({ error: { code: "network", message: t("net_error") } });
    xhr.onload = () => {
      let data = null;
      try { data = JSON.parse(xhr.responseText); } catch (e) { data = null; }
      if (xhr.status >= 400 || data === null || data.error) {
        const answer = errorOf(xhr.status, data);
        answer.retryAfter = parseInt(xhr.getResponseHeader("Retry-After"), 10) || null;
        resolve(answer);
      } else resolve(data);
    };
    xhr.open("POST", url);
    const headers = langHeaders();
    Object.keys(headers).forEach((k) => xhr.setRequestHeader(k, headers[k]));
    xhr.send(form);
  });
}
