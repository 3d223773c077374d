// The dashboard: a thin client of the supervisor's API and event stream. Every action is
// one of the CLI's commands (POST /v1/commands/...); text from processes is only ever set
// with textContent, never parsed as HTML.

import { codeSpans, duration, ended, exact, relative, size, timeOf } from "./format.js";

const csrf = document.querySelector('meta[name="procler-csrf"]').content;
// The statuses from which each action can change something (procler.states).
const can = JSON.parse(document.querySelector('meta[name="procler-actions"]').content);
const page = document.getElementById("page");
const rows = new Map(); // process name -> status row, kept live by the event stream
const REFRESH_EVERY = 5000; // ms: CPU and memory move with no event
let events = null;
let onEvent = () => {};
let redraw = () => {};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node[key] = value;
    else if (key === "disabled") node.disabled = Boolean(value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ""));
  return node;
}

function showError(envelope) {
  const box = document.getElementById("error");
  box.hidden = false;
  box.textContent = `${envelope.error_code}: ${envelope.error}` +
    (envelope.suggestion ? `\n${envelope.suggestion}` : "");
  box.onclick = () => { box.hidden = true; };
}

async function envelopeOf(response) {
  let text = await response.text();
  // A slow command sends its headers first, then "exit code\n" and the envelope.
  if (response.headers.has("X-Reply-Within")) text = text.slice(text.indexOf("\n") + 1);
  return JSON.parse(text);
}

async function get(path, quiet = false) {
  const envelope = await envelopeOf(await fetch(path, { credentials: "same-origin" }));
  if (!envelope.success && !quiet) showError(envelope);
  return envelope;
}

async function call(command, values = {}, quiet = false) {
  const path = "/v1/commands/" + command.split(" ").map(encodeURIComponent).join("/");
  const response = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Procler-CSRF": csrf },
    body: JSON.stringify({ values }),
  });
  const envelope = await envelopeOf(response);
  if (!envelope.success && !quiet) showError(envelope);
  return envelope;
}

// A question asked inside the page (never window.confirm): true for yes.
function ask(question, detail = "") {
  const dialog = document.getElementById("ask");
  document.getElementById("ask-question").textContent = question;
  const more = document.getElementById("ask-detail");
  more.textContent = detail;
  more.hidden = !detail;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

// -- values for a person ---------------------------------------------------------------

// A time: relative where it helps ("3 min ago"), the exact local time on hover.
function when(value) {
  if (value === null || value === undefined) return "-";
  const at = timeOf(value);
  return el("time", { datetime: new Date(at).toISOString(), title: exact(at), "data-at": at },
    relative(at, Date.now()));
}

function lastExit(exit) {
  if (!exit) return "-";
  return el("span", { class: "exit" }, ended(exit.code, exit.signal), " ", when(exit.at));
}

// Uptime counted here from started_at, so it moves every second without a request.
function uptime(row) {
  if (!row.started_at) return "-";
  return el("span", { "data-started": timeOf(row.started_at) },
    duration(Math.max(0, (Date.now() - timeOf(row.started_at)) / 1000)));
}

function tick() {
  const now = Date.now();
  for (const node of document.querySelectorAll("[data-started]")) {
    node.textContent = duration(Math.max(0, (now - Number(node.dataset.started)) / 1000));
  }
  for (const node of document.querySelectorAll("time[data-at]")) {
    node.textContent = relative(Number(node.dataset.at), now);
  }
}
setInterval(tick, 1000);

function statusCell(status) {
  return el("span", { class: `status status-${status}` }, status);
}

// -- live data ---------------------------------------------------------------------------

function listen(query = "") {
  if (events) events.close();
  const live = document.getElementById("live");
  events = new EventSource("/v1/events" + query);
  events.onopen = () => { live.className = "live on"; live.textContent = "live"; };
  events.onerror = () => { live.className = "live off"; live.textContent = "reconnecting"; };
  events.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.type === "snapshot") {
      rows.clear();
      for (const row of event.processes) rows.set(row.name, row);
    } else if (event.type === "status" && rows.has(event.name)) {
      rows.get(event.name).status = event.to;
      refreshRows();
    } else if (event.type === "health") {
      refreshRows();
    }
    onEvent(event);
  };
}

// Every row as `procler status` answers it now (pid, health, CPU, memory, last exit).
let refreshing = null;
function refreshRows() {
  refreshing ??= get("/v1/processes", true).then((answer) => {
    refreshing = null;
    if (!answer.success) return;
    rows.clear();
    for (const row of answer.data.processes) rows.set(row.name, row);
    redraw();
  });
}
setInterval(() => { if (document.visibilityState === "visible") refreshRows(); }, REFRESH_EVERY);

// -- pages --------------------------------------------------------------------------

// A process's buttons, each enabled only when its action can do something now.
function actions(row) {
  const name = row.name;
  const stop = async () => {
    if (await ask(`Stop ${name}?`, "Its stop signal, then SIGKILL after its stop timeout.")) {
      await call("stop", { name });
    }
  };
  return el("span", { class: "actions" },
    el("button", { onclick: () => call("start", { name }), disabled: !can.start.includes(row.status) }, "start"),
    el("button", { onclick: stop, class: "danger", disabled: !can.stop.includes(row.status) }, "stop"),
    el("button", { onclick: () => call("restart", { name }), disabled: !can.restart.includes(row.status) }, "restart"));
}

const COLUMNS = [
  ["name", (r) => el("a", { href: `#/process/${encodeURIComponent(r.name)}` }, r.name)],
  ["status", (r) => statusCell(r.status)],
  ["health", (r) => r.health ? statusCell(r.health.status) : "-"],
  ["pid", (r) => r.pid ?? "-"],
  ["uptime", uptime],
  ["restarts", (r) => r.restarts],
  ["cpu", (r) => r.cpu_percent === null || r.cpu_percent === undefined ? "-" : `${r.cpu_percent.toFixed(1)}%`],
  ["memory", (r) => r.memory_rss_bytes ? size(r.memory_rss_bytes) : "-"],
  ["namespace", (r) => r.namespaces.join(", ")],
  ["next run", (r) => r.schedule?.next_run ? when(r.schedule.next_run) : "-"],
  ["last exit", (r) => lastExit(r.last_exit)],
  ["", actions],
];

function processesPage() {
  const body = el("tbody");
  const draw = () => {
    body.replaceChildren(...[...rows.values()].map((row) => el("tr", { "data-name": row.name },
      ...COLUMNS.map(([head, cell]) => el("td", { "data-label": head, class: `col-${head.replace(" ", "-") || "actions"}` }, cell(row))))));
  };
  onEvent = draw;
  redraw = draw;
  listen();
  draw();
  return el("table", { id: "processes", class: "cards" },
    el("thead", {}, el("tr", {}, ...COLUMNS.map(([head]) => el("th", {}, head)))),
    body);
}

function logLine(line, needle) {
  const node = el("div", { class: line.stream === "stderr" ? "stderr" : "" });
  const text = String(line.text);
  if (!needle) { node.textContent = text; return node; }
  const folded = text.toLowerCase();
  let at = 0;
  for (let hit = folded.indexOf(needle); hit !== -1; hit = folded.indexOf(needle, at)) {
    node.append(text.slice(at, hit), el("mark", {}, text.slice(hit, hit + needle.length)));
    at = hit + needle.length;
  }
  node.append(text.slice(at));
  return node;
}

// A fetch of path drawn when it answers, unless a newer fetch of it was asked meanwhile.
function latest(path, draw) {
  let asked = 0;
  return async () => {
    const mine = ++asked;
    const answer = await get(path);
    if (answer.success && mine === asked) draw(answer.data);
  };
}

function table(id, heads, cells, empty) {
  const body = cells.length
    ? cells.map((row) => el("tr", {}, ...row.map((c, i) => el("td", { "data-label": heads[i] }, c))))
    : [el("tr", {}, el("td", { colspan: heads.length, class: "empty" }, empty))];
  return el("table", { id, class: "cards" }, el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...body));
}

function historyTables(history) {
  const moves = history.health.map((m) => [when(m.at), m.run ?? "-", m.from, m.to, m.reason]);
  const exits = history.exits.map((x) => [when(x.ended_at), x.run ?? "-", ended(x.exit_code, x.signal),
    x.duration_seconds === null ? "-" : duration(x.duration_seconds), x.reason]);
  return [
    el("h3", {}, "last exits"),
    table("exits", ["ended", "run", "how", "ran for", "reason"], exits, "no run has ended"),
    el("h3", {}, "health history"),
    table("health-history", ["at", "run", "from", "to", "reason"], moves, "no health check has run"),
  ];
}

function facts(row) {
  const pairs = [
    ["pid", row.pid ?? "-"], ["uptime", uptime(row)], ["restarts", row.restarts], ["run", row.run ?? "-"],
    ["health", row.health ? statusCell(row.health.status) : "no check"],
    ...(row.liveness ? [["liveness", statusCell(row.liveness.status)]] : []),
    ["cpu", row.cpu_percent === null || row.cpu_percent === undefined ? "-" : `${row.cpu_percent.toFixed(1)}%`],
    ["memory", row.memory_rss_bytes ? size(row.memory_rss_bytes) : "-"],
    ["namespace", row.namespaces.join(", ")],
    ["last exit", lastExit(row.last_exit)],
  ];
  if (row.schedule?.next_run) pairs.push(["next run", when(row.schedule.next_run)]);
  if (row.why) pairs.push(["why", row.why]);
  return el("dl", { id: "facts" }, ...pairs.flatMap(([k, v]) => [el("dt", {}, k), el("dd", { "data-fact": k }, v)]));
}

async function processPage(name) {
  const path = `/v1/processes/${encodeURIComponent(name)}`;
  const info = el("div", { id: "info" });
  const past = el("div", { id: "history" });
  const logs = el("pre", { class: "logs", id: "logs" });
  const search = el("input", { id: "search", type: "search", placeholder: "search the logs" });
  const lines = [];
  const drawLogs = () => {
    const needle = search.value.toLowerCase();
    const shown = needle ? lines.filter((l) => String(l.text).toLowerCase().includes(needle)) : lines;
    logs.replaceChildren(...shown.map((l) => logLine(l, needle)));
    logs.scrollTop = logs.scrollHeight;
  };
  search.oninput = drawLogs;
  // A process with `stdin: true`: a line typed here goes to its stdin (`procler send`).
  // Made once, outside what each event redraws, so what is being typed stays.
  const line = el("input", { id: "stdin-text", placeholder: `a line for ${name}'s stdin` });
  const sent = el("span", { id: "stdin-sent" });
  const input = el("form", { id: "stdin", hidden: true }, line, el("button", { type: "submit" }, "send"), sent);
  input.onsubmit = async (event) => {
    event.preventDefault();
    const answer = await call("send", { name, text: line.value });
    if (answer.success) { sent.textContent = `sent ${answer.data.bytes} bytes`; line.value = ""; }
  };
  const drawInfo = (row) => {
    input.hidden = !row.stdin;
    info.replaceChildren(
      el("h2", {}, el("span", { class: "name" }, name), " ", statusCell(row.status), " ", actions(row)),
      facts(row));
  };
  // Its status and `procler history`, fetched again on each of its events and (the status)
  // every few seconds for CPU and memory.
  const drawStatus = latest(path, drawInfo);
  const drawHistory = latest(`${path}/history?limit=10`,
    (history) => past.replaceChildren(...historyTables(history)));
  const tail = await get(`${path}/logs?tail=200`);
  if (tail.success) lines.push(...tail.data.lines);
  await Promise.all([drawStatus(), drawHistory()]);
  onEvent = (event) => {
    if (event.type === "log" && event.name === name) { lines.push(event); drawLogs(); }
    if (event.type === "snapshot" || (event.type !== "log" && event.name === name)) {
      drawStatus();
      drawHistory();
    }
  };
  redraw = drawStatus;
  listen(`?logs=${encodeURIComponent(name)}`);
  drawLogs();
  return el("section", { class: "process" }, info, input, el("h3", {}, "logs"), search, logs, past);
}

async function groupsPage() {
  const answer = await get("/v1/groups");
  const groups = answer.success ? answer.data.groups : [];
  const stop = async (group) => {
    if (await ask(`Stop group ${group}?`, "Its members, in reverse dependency order.")) {
      await call("group stop", { name: group });
    }
  };
  return table("groups", ["group", "processes", ""], groups.map((g) => [
    g.name, g.processes.join(", "),
    el("span", { class: "actions" },
      el("button", { onclick: () => call("group start", { name: g.name }) }, "start"),
      el("button", { onclick: () => stop(g.name), class: "danger" }, "stop"))]), "no group defined");
}

async function recipesPage() {
  const list = await call("recipe list");
  const runs = el("div", { id: "runs" });
  const drawRuns = async () => {
    const answer = await call("recipe runs");
    if (!answer.success) return;
    const shown = [];
    for (const run of answer.data.runs.slice(0, 10)) {
      const detail = await call("recipe status", { run_id: run.run_id });
      const steps = detail.success ? detail.data.steps : [];
      shown.push(el("div", { class: "run", "data-run": run.run_id },
        el("h3", {}, `${run.recipe} · `, el("span", { class: `run-status step-${run.status}` }, run.status), " · ", when(run.started_at)),
        el("p", { class: "run-id" }, run.run_id),
        el("ol", {}, ...steps.map((s) => el("li", {}, `${s.id}: `, el("span", { class: `step-${s.status}` }, s.status)))),
        el("button", { onclick: () => call("recipe resume", { run_id: run.run_id }).then(drawRuns),
          disabled: !can.resume.includes(run.status) }, "resume"),
        el("button", { onclick: () => call("recipe cancel", { run_id: run.run_id }).then(drawRuns),
          disabled: !can.cancel.includes(run.status), class: "danger" }, "cancel")));
    }
    runs.replaceChildren(...(shown.length ? shown : [el("p", { class: "empty" }, "no run recorded")]));
  };
  const recipes = list.success ? list.data.recipes : [];
  await drawRuns();
  return el("section", {},
    table("recipes", ["recipe", "description", "steps", ""], recipes.map((r) => [
      r.name, r.description || "-", `${r.steps} steps`,
      el("button", { onclick: () => call("recipe run", { name: r.name }).then(drawRuns) }, "run")]),
    "no recipe defined"),
    runs);
}

async function snippetsPage() {
  const list = await call("snippet list");
  const output = el("pre", { id: "snippet-output" });
  const snippets = list.success ? list.data.snippets : [];
  if (!snippets.length) return el("p", { class: "empty" }, "no snippet defined");
  return el("section", {}, ...snippets.map((s) => {
    const fields = s.args.map((arg) => el("label", {}, `${arg.name} (${arg.type}) `,
      el("input", { name: arg.name, value: arg.default ?? "" })));
    const form = el("form", { class: "args", "data-snippet": s.name },
      el("h3", {}, s.name), el("code", {}, s.command), ...fields, el("button", { type: "submit" }, "run"));
    form.onsubmit = async (e) => {
      e.preventDefault();
      if (s.confirm && !(await ask(`Run ${s.name}?`, s.command))) return;
      const args = [...form.querySelectorAll("input")].map((i) => `${i.name}=${i.value}`);
      const answer = await call("snippet run", { name: s.name, arg: args, yes: true });
      output.textContent = answer.success ? `exit ${answer.data.exit_code}\n${answer.data.stdout}${answer.data.stderr}` : answer.error;
    };
    return form;
  }), output);
}

// The explanation's `code spans` as <code>, the rest as text.
function explained(text) {
  return codeSpans(text).map((piece, i) => (i % 2 ? el("code", {}, piece) : piece));
}

async function configPage() {
  const explain = await get("/v1/config/explain");
  const findings = el("ul", { id: "findings" });
  const diff = el("pre", { id: "reload-diff" });
  const check = async () => {
    const planned = await call("reload", { dry_run: true }, true);
    const errors = planned.success ? [] : planned.data?.errors ?? [];
    findings.replaceChildren(...errors.map((e) =>
      el("li", { class: "finding" }, `line ${e.line}, column ${e.column}: ${e.path}: ${e.message}`)));
    if (!planned.success && !errors.length) showError(planned);
    diff.textContent = planned.success ? ["added", "changed", "removed"].map((part) =>
      `${part}: ${planned.data[part].map((c) => c.name ?? c).join(", ") || "-"}`).join("\n") : "";
    return planned;
  };
  const reload = el("button", { id: "reload", onclick: async () => {
    const planned = await check();
    if (planned.success && await ask("Apply this reload?", diff.textContent)) await call("reload");
  } }, "reload (shows the diff first)");
  await check();
  return el("section", {},
    el("p", { id: "explain" }, ...(explain.success ? explained(explain.data.paragraph) : [])),
    findings, reload, diff);
}

async function route() {
  const [, head, arg] = location.hash.split("/");
  onEvent = () => {};
  redraw = () => {};
  let view;
  if (head === "process" && arg) view = await processPage(decodeURIComponent(arg));
  else if (head === "groups") view = await groupsPage();
  else if (head === "recipes") view = await recipesPage();
  else if (head === "snippets") view = await snippetsPage();
  else if (head === "config") view = await configPage();
  else view = processesPage();
  for (const link of document.querySelectorAll("header nav a")) {
    link.classList.toggle("here", link.getAttribute("href") === `#/${head === "process" ? "" : head ?? ""}`);
  }
  page.replaceChildren(view);
}

window.addEventListener("hashchange", route);
route();
