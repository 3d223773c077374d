// How values are written for a person: durations, sizes, times (the browser's local time,
// relative where it helps, the exact time on hover), how a run ended, code spans. Plain
// functions of the API's values; text is only ever set with textContent.

const SIGNALS = { 1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 6: "SIGABRT", 9: "SIGKILL",
  11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM" };

// 0.5s, 42s, 5m13s, 2h03m, 3d04h: as `procler status -f table` writes them.
export function duration(seconds) {
  if (seconds < 10 && seconds !== Math.trunc(seconds)) return `${(Math.trunc(seconds * 10) / 10).toFixed(1)}s`;
  const whole = Math.trunc(seconds);
  const pad = (n) => String(n).padStart(2, "0");
  const days = Math.trunc(whole / 86400), hours = Math.trunc(whole % 86400 / 3600);
  const minutes = Math.trunc(whole % 3600 / 60), secs = whole % 60;
  if (days) return `${days}d${pad(hours)}h`;
  if (hours) return `${hours}h${pad(minutes)}m`;
  return minutes ? `${minutes}m${pad(secs)}s` : `${secs}s`;
}

export function size(bytes) {
  let value = bytes;
  for (const unit of ["B", "KiB", "MiB", "GiB"]) {
    if (value < 1024 || unit === "GiB") return unit === "B" ? `${value} B` : `${value.toFixed(1)} ${unit}`;
    value /= 1024;
  }
  return "";
}

// An answer's time (an ISO timestamp or epoch seconds) as milliseconds.
export function timeOf(value) {
  return typeof value === "number" ? value * 1000 : Date.parse(value);
}

// "just now", "42 s ago", "3 min ago", "2 h ago", "3 days ago"; "in 42 s" ahead.
export function relative(at, now) {
  const seconds = Math.round((now - at) / 1000);
  const ahead = seconds < 0, span = Math.abs(seconds);
  if (span < 5) return "just now";
  const said = span < 60 ? `${span} s` : span < 3600 ? `${Math.floor(span / 60)} min`
    : span < 86400 ? `${Math.floor(span / 3600)} h` : `${Math.floor(span / 86400)} days`;
  return ahead ? `in ${said}` : `${said} ago`;
}

export function exact(at) {
  return new Date(at).toLocaleString();
}

// How a run ended: "exit code 0", "signal 15 (SIGTERM)".
export function ended(code, signal) {
  if (code !== null && code !== undefined) return `exit code ${code}`;
  if (signal === null || signal === undefined) return "no exit code";
  return SIGNALS[signal] ? `signal ${signal} (${SIGNALS[signal]})` : `signal ${signal}`;
}

// Text with `code spans` as [text, code, text, ...]: odd pieces are code.
export function codeSpans(text) {
  const pieces = String(text).split("`");
  return pieces.length % 2 ? pieces : [...pieces.slice(0, -2), `${pieces.at(-2)}\`${pieces.at(-1)}`];
}
