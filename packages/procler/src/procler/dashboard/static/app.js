// The dashboard: a thin client of the supervisor's API and event stream. Every action is
// one of the CLI's commands (POST /v1/commands/...); text from processes is only ever set
// with textContent, never parsed as HTML.

const csrf = document.querySelector('meta[name="procler-csrf"]').content;
const page = document.getElementById("page");
const rows = new Map(); // process name -> status row, kept live by the event stream
let events = null;
let onEvent = () => {};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick" || key === "onsubmit" || key === "oninput") node[key] = value;
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

async function get(path) {
  const envelope = await envelopeOf(await fetch(path, { credentials: "same-origin" }));
  if (!envelope.success) showError(envelope);
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

function statusCell(status) {
  return el("span", { class: `status status-${status}` }, status);
}

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
    }
    onEvent(event);
  };
}

// -- pages --------------------------------------------------------------------------

function actions(name) {
  return el("td", {},
    el("button", { onclick: () => call("start", { name }) }, "start"),
    el("button", { onclick: () => confirm(`Stop ${name}?`) && call("stop", { name }) }, "stop"),
    el("button", { onclick: () => call("restart", { name }) }, "restart"));
}

function processesPage() {
  const body = el("tbody");
  const draw = () => {
    body.replaceChildren(...[...rows.values()].map((row) => el("tr", { "data-name": row.name },
      el("td", {}, el("a", { href: `#/process/${encodeURIComponent(row.name)}` }, row.name)),
      el("td", { class: "status-cell" }, statusCell(row.status)),
      el("td", {}, row.pid ?? ""),
      el("td", {}, row.restarts),
      actions(row.name))));
  };
  onEvent = draw;
  listen();
  draw();
  return el("table", { id: "processes" },
    el("thead", {}, el("tr", {}, ...["name", "status", "pid", "restarts", ""].map((h) => el("th", {}, h)))),
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

function table(id, heads, rows, empty) {
  const body = rows.length ? rows.map((cells) => el("tr", {}, ...cells.map((c) => el("td", {}, c))))
    : [el("tr", {}, el("td", { colspan: heads.length, class: "empty" }, empty))];
  return el("table", { id }, el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", {}, h)))),
    el("tbody", {}, ...body));
}

function historyTables(history) {
  const moves = history.health.map((m) => [m.at, m.run ?? "", m.from, m.to, m.reason]);
  const exits = history.exits.map((x) => [x.ended_at, x.run ?? "", x.exit_code ?? "",
    x.signal ?? "", x.duration_seconds === null ? "" : `${x.duration_seconds}s`, x.reason]);
  return [
    el("h3", {}, "health history"),
    table("health-history", ["at", "run", "from", "to", "reason"], moves, "no health check has run"),
    el("h3", {}, "last exits"),
    table("exits", ["ended", "run", "exit code", "signal", "ran for", "reason"], exits, "no run has ended"),
  ];
}

async function processPage(name) {
  const path = `/v1/processes/${encodeURIComponent(name)}`;
  const info = el("div", { id: "info" });
  const past = el("div", { id: "history" });
  const logs = el("pre", { class: "logs", id: "logs" });
  const search = el("input", { id: "search", placeholder: "search the logs" });
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
      el("h2", {}, name, " ", statusCell(row.status)),
      el("p", {}, `pid ${row.pid ?? "-"} · restarts ${row.restarts} · run ${row.run}`),
      el("p", { id: "checks" }, `readiness (healthcheck): ${row.health ? row.health.status : "no check"}`,
        ` · liveness: ${row.liveness ? row.liveness.status : "no check"}`),
      actions(name));
  };
  // Its status and `procler history`, fetched again on each of its events (no polling).
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
  listen(`?logs=${encodeURIComponent(name)}`);
  drawLogs();
  return el("section", {}, info, input, past, search, logs);
}

async function groupsPage() {
  const answer = await get("/v1/groups");
  const groups = answer.success ? answer.data.groups : [];
  return el("table", { id: "groups" }, ...groups.map((g) => el("tr", {},
    el("td", {}, g.name), el("td", {}, g.processes.join(", ")),
    el("td", {},
      el("button", { onclick: () => call("group start", { name: g.name }) }, "start"),
      el("button", { onclick: () => confirm(`Stop group ${g.name}?`) && call("group stop", { name: g.name }) }, "stop")))));
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
        el("h3", {}, `${run.recipe} · ${run.run_id} · `, el("span", { class: "run-status" }, run.status)),
        el("ol", {}, ...steps.map((s) => el("li", {}, `${s.id}: ${s.status}`))),
        el("button", { onclick: () => call("recipe resume", { run_id: run.run_id }).then(drawRuns) }, "resume"),
        el("button", { onclick: () => call("recipe cancel", { run_id: run.run_id }).then(drawRuns) }, "cancel")));
    }
    runs.replaceChildren(...shown);
  };
  const recipes = list.success ? list.data.recipes : [];
  await drawRuns();
  return el("section", {},
    el("table", { id: "recipes" }, ...recipes.map((r) => el("tr", { "data-recipe": r.name },
      el("td", {}, r.name), el("td", {}, r.description ?? ""), el("td", {}, `${r.steps} steps`),
      el("td", {}, el("button", { onclick: () => call("recipe run", { name: r.name }).then(drawRuns) }, "run"))))),
    runs);
}

async function snippetsPage() {
  const list = await call("snippet list");
  const output = el("pre", { id: "snippet-output" });
  const snippets = list.success ? list.data.snippets : [];
  return el("section", {}, ...snippets.map((s) => {
    const fields = s.args.map((arg) => el("label", {}, `${arg.name} (${arg.type}) `,
      el("input", { name: arg.name, value: arg.default ?? "" })));
    const form = el("form", { class: "args", "data-snippet": s.name },
      el("h3", {}, s.name), el("code", {}, s.command), ...fields, el("button", { type: "submit" }, "run"));
    form.onsubmit = async (e) => {
      e.preventDefault();
      if (s.confirm && !confirm(`Run ${s.name}?`)) return;
      const args = [...form.querySelectorAll("input")].map((i) => `${i.name}=${i.value}`);
      const answer = await call("snippet run", { name: s.name, arg: args, yes: true });
      output.textContent = answer.success ? `exit ${answer.data.exit_code}\n${answer.data.stdout}${answer.data.stderr}` : answer.error;
    };
    return form;
  }), output);
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
    if (planned.success && confirm("Apply this reload?\n" + diff.textContent)) await call("reload");
  } }, "reload (shows the diff first)");
  await check();
  return el("section", {},
    el("p", { id: "explain" }, explain.success ? explain.data.paragraph : ""),
    findings, reload, diff);
}

async function route() {
  const [, head, arg] = location.hash.split("/");
  onEvent = () => {};
  let view;
  if (head === "process" && arg) view = await processPage(decodeURIComponent(arg));
  else if (head === "groups") view = await groupsPage();
  else if (head === "recipes") view = await recipesPage();
  else if (head === "snippets") view = await snippetsPage();
  else if (head === "config") view = await configPage();
  else view = processesPage();
  page.replaceChildren(view);
}

window.addEventListener("hashchange", route);
route();
