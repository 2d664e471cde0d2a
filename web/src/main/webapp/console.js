// The console: plain DOM, every value written with textContent, so that nothing a user typed or a
// message carried is ever read as HTML.
"use strict";

const CHANGE_HEADERS = { "X-Requested-By": "exactly-once-console" };
const REFRESH_MILLIS = 2000;
const $ = (id) => document.getElementById(id);

// resolved against the page's address without any user:password@ in it, which fetch refuses
const API_BASE = new URL("api/", location.origin + location.pathname);

async function api(path, options = {}) {
    const response = await fetch(new URL(path, API_BASE), { credentials: "same-origin", ...options });
    if (!response.ok && response.status !== 404) {
        throw new Error(`${options.method || "GET"} ${path}: ${response.status} ${await response.text()}`);
    }
    if (response.status === 204) {
        return null;
    }
    return { status: response.status, body: response.status === 404 ? null : await response.json() };
}

function cell(row, value, className) {
    const td = row.insertCell();
    td.textContent = value ?? "";
    if (className) {
        td.className = className;
    }
    return td;
}

function ago(seconds) {
    if (seconds === null || seconds === undefined) {
        return "";
    }
    return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`;
}

function when(instant) {
    return instant ? new Date(instant).toLocaleString() : "";
}

function fillOptions(select, values, keepFirst) {
    const selected = select.value;
    while (select.options.length > (keepFirst ? 1 : 0)) {
        select.remove(keepFirst ? 1 : 0);
    }
    for (const value of values) {
        select.add(new Option(value, value));
    }
    if (values.includes(selected)) {
        select.value = selected;
    }
}

async function refreshConsumers() {
    const { body: consumers } = await api("consumers");
    const tbody = $("consumers").tBodies[0];
    tbody.replaceChildren();
    for (const c of consumers) {
        const d = c.deliveries;
        const row = tbody.insertRow();
        row.dataset.consumer = c.consumer;
        cell(row, c.consumer);
        cell(row, c.subscription ? `${c.destination}, ${c.subscription}` : c.destination);
        cell(row, d.processed, "number processed");
        cell(row, c.processedLastMinute, "number");
        cell(row, `${d.duplicate_already_committed} / ${d.duplicate_lost_race} / ${d.duplicate_conflict}`, "number");
        cell(row, d.failed, "number");
        cell(row, c.parkedNow, "number");
        cell(row, c.idTable ? `${c.idTable.unconfirmed} / ${c.idTable.acknowledged}` : "not counted yet", "number");
        cell(row, ago(c.oldestUnconfirmedAgeSeconds));
        cell(row, c.lastPurge ? when(c.lastPurge.startedAt) : "");
        cell(row, c.unconfirmable.join("; "), "unconfirmable");
    }
    const names = consumers.map((c) => c.consumer);
    fillOptions($("lookup-consumer"), names, false);
    fillOptions($("parked-consumer"), names, true);
    $("consumers-updated").textContent = new Date().toLocaleTimeString();
}

async function lookUp(event) {
    event.preventDefault();
    const consumer = $("lookup-consumer").value;
    const id = $("lookup-id").value.trim();
    const result = $("lookup-result");
    result.replaceChildren();
    const found = await api("processed?" + new URLSearchParams({ consumer, messageId: id }));
    const facts = found.body
        ? [["message ID", found.body.messageId], ["state", found.body.state], ["processed at", when(found.body.processedAt)],
           ["acknowledged at", when(found.body.acknowledgedAt) || "not confirmed yet"], ["JMS message ID", found.body.jmsMessageId],
           ["delivered by broker", found.body.broker || "not recorded"]]
        : [["message ID", id], ["state", `not processed by ${consumer}, or purged after the dedup window`]];
    for (const [term, value] of facts) {
        const dt = document.createElement("dt");
        dt.textContent = term;
        const dd = document.createElement("dd");
        dd.textContent = value ?? "";
        result.append(dt, dd);
    }
    result.dataset.state = found.body ? found.body.state : "NOT_FOUND";
}

async function refreshParked() {
    const query = new URLSearchParams({ page: "0", size: "100" });
    if ($("parked-consumer").value) {
        query.set("consumer", $("parked-consumer").value);
    }
    if ($("parked-reason").value) {
        query.set("reason", $("parked-reason").value);
    }
    const { body: parked } = await api("parked?" + query);
    const tbody = $("parked").tBodies[0];
    tbody.replaceChildren();
    for (const p of parked) {
        const row = tbody.insertRow();
        row.dataset.messageId = p.messageId ?? "";
        cell(row, p.id, "number");
        cell(row, p.consumer);
        cell(row, p.messageId);
        cell(row, p.reason);
        cell(row, p.detail);
        // the list carries the start of each body; api/parked/{id} has the whole message
        const body = p.bodyType === "TEXT" ? p.bodyPreview : `(${p.bodyType}) ${p.bodyPreview}`;
        cell(row, body, "body").title = `parked message #${p.id}, whole: api/parked/${p.id}`;
        cell(row, p.attempts, "number");
        cell(row, when(p.parkedAt));
        const actions = row.insertCell();
        actions.className = "admin-only";
        actions.append(
            actionButton("Replay", "replay", () => confirm(`Replay parked message #${p.id} to queue ${p.queue}?`),
                () => api(`parked/${p.id}/replay`, { method: "POST", headers: CHANGE_HEADERS }), "parked-status"),
            actionButton("Discard", "discard danger", () => confirm(`Discard parked message #${p.id} for good?`),
                () => api(`parked/${p.id}`, { method: "DELETE", headers: CHANGE_HEADERS }), "parked-status"));
    }
    $("parked-status").textContent = parked.length ? "" : "No parked messages.";
}

async function refreshOutbox() {
    const { body: outbox } = await api("outbox");
    const waiting = Object.entries(outbox.backlogByDestination).map(([to, count]) => `${count} for ${to}`);
    $("outbox-summary").textContent = (outbox.backlog === 0
        ? "nothing waits"
        : `${outbox.backlog} waiting (${waiting.join(", ")}), the oldest for ${ago(outbox.oldestAgeSeconds)}, `
            + `${outbox.failing} of them failing`) + `; ${outbox.sent} sent by this server since it started`;
    const tbody = $("outbox").tBodies[0];
    tbody.replaceChildren();
    for (const m of outbox.failingMessages) {
        const row = tbody.insertRow();
        row.dataset.messageId = m.messageId;
        cell(row, m.messageId);
        cell(row, m.destination);
        cell(row, m.bodyPreview, "body");
        cell(row, when(m.writtenAt));
        cell(row, m.attempts, "number");
        cell(row, m.lastFailure);
        const actions = row.insertCell();
        actions.className = "admin-only";
        actions.append(actionButton("Discard", "discard danger",
            () => confirm(`Discard outgoing message ${m.messageId} for ${m.destination} unsent, for good?`),
            () => api(`outbox/${encodeURIComponent(m.messageId)}`, { method: "DELETE", headers: CHANGE_HEADERS }),
            "outbox-status"));
    }
    $("outbox-status").textContent = outbox.failingMessages.length ? "" : "No outgoing message failed to go.";
}

// read once a minute: a setting changes rarely, and each read asks the database
async function refreshDurability() {
    const { body: durability } = await api("database/durability");
    const losing = durability.settings.filter((s) => s.verdict === "LOSES_COMMITS").length;
    $("database-summary").textContent = !durability.known
        ? `${durability.database}: the engine does not know which settings make a commit durable here`
        : `${durability.database}: ` + (losing ? `${losing} setting(s) can lose committed messages` : "commits survive a crash");
    const tbody = $("durability").tBodies[0];
    tbody.replaceChildren();
    for (const s of durability.settings) {
        const row = tbody.insertRow();
        cell(row, s.name);
        cell(row, s.value);
        cell(row, s.verdict.toLowerCase().replace("_", " "), s.verdict === "LOSES_COMMITS" ? "error" : "");
        cell(row, s.why);
    }
}

function actionButton(label, className, confirmed, action, statusId) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = label;
    button.className = className;
    button.addEventListener("click", () => {
        if (confirmed()) {
            run(async () => {
                await action();
                $(statusId).textContent = `${label} done.`;
                await Promise.all([refreshParked(), refreshConsumers(), refreshOutbox()]);
            });
        }
    });
    return button;
}

async function purgeNow() {
    const { body: report } = await api("purge", { method: "POST", headers: CHANGE_HEADERS });
    const byAge = report.confirmedByAge > 0 ? `${report.confirmedByAge} confirmed by age alone, ` : "";
    $("purge-result").textContent = `Purge: ${report.confirmed} confirmed, ${byAge}${report.deleted} deleted, `
        + `${report.keptPending} still on the broker, in ${report.took}; `
        + `deliveries waited at most ${report.longestLockHold} for a batch of deletes.`;
    await refreshConsumers();
}

async function whoAmI() {
    const { body: me } = await api("me");
    $("user").textContent = `${me.user} (${me.admin ? "admin" : "viewer"})`;
    document.body.classList.toggle("admin", me.admin);
}

function run(task) {
    task().catch((error) => {
        $("parked-status").textContent = error.message;
        $("parked-status").classList.add("error");
    });
}

document.addEventListener("DOMContentLoaded", () => {
    $("lookup").addEventListener("submit", (event) => run(() => lookUp(event)));
    $("purge-now").addEventListener("click", () => run(purgeNow));
    $("parked-consumer").addEventListener("change", () => run(refreshParked));
    $("parked-reason").addEventListener("change", () => run(refreshParked));
    run(whoAmI);
    run(async () => {
        await refreshConsumers();
        await refreshParked();
    });
    run(refreshOutbox);
    run(refreshDurability);
    setInterval(() => run(refreshDurability), REFRESH_MILLIS * 30);
    setInterval(() => run(refreshConsumers), REFRESH_MILLIS);
    setInterval(() => run(refreshOutbox), REFRESH_MILLIS);
    setInterval(() => run(refreshParked), REFRESH_MILLIS * 5);
});
