// The understudy status page (docs/operations.md#status-page). Polls GET /ui/api/state every second and renders
// it with textContent only: nothing from the server is ever parsed as HTML. Actions are POSTs with the session's
// CSRF token, each behind a confirm() dialog.
'use strict';

const POLL_MS = 1000;
let csrfToken = '';
let last;
/** Server clock minus ours, ms: countdowns follow the gateway's time. */
let skewMs = 0;

function el(tag, options, children) {
  const node = document.createElement(tag);
  if (options && options.text !== undefined) node.textContent = String(options.text);
  if (options && options.className) node.className = options.className;
  if (options && options.title) node.title = options.title;
  for (const child of children || []) if (child) node.append(child);
  return node;
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

function countdown(untilMs) {
  const left = Math.max(0, Math.round((untilMs - (Date.now() + skewMs)) / 1000));
  const hours = Math.floor(left / 3600);
  const minutes = Math.floor((left % 3600) / 60);
  const seconds = left % 60;
  const pad = (value) => String(value).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** A state badge; cooling and disabled ones carry data-until so the countdown ticks between polls. */
function stateBadge(unavailable) {
  if (!unavailable) return el('span', { className: 'badge ok', text: 'ok' });
  const until = Date.parse(unavailable.until);
  const word = unavailable.lane === 'disable' ? 'disabled' : 'cooling';
  const badge = el('span', { className: `badge ${word}` });
  badge.dataset.until = String(until);
  badge.dataset.word = word;
  badge.textContent = `${word} · ${countdown(until)}`;
  const detail = el('span', { className: 'detail', text: `until ${clock(until)} · ${unavailable.reason}${unavailable.model ? ` · ${unavailable.model}` : ''}` });
  return el('span', { className: 'state' }, [badge, detail]);
}

function tick() {
  for (const badge of document.querySelectorAll('[data-until]')) {
    badge.textContent = `${badge.dataset.word} · ${countdown(Number(badge.dataset.until))}`;
  }
}

async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-understudy-csrf': csrfToken },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error((json.error && json.error.message) || `HTTP ${response.status}`);
  return json;
}

function showResult(text, failed) {
  const result = document.getElementById('action-result');
  result.textContent = text;
  result.className = failed ? 'problem' : 'notice';
  result.hidden = false;
}

async function clearCooldown(agent, profile) {
  if (!window.confirm(`Clear the cooldown of ${profile} (agent ${agent})? Its failure counts are reset too.`)) return;
  try {
    await post('/ui/api/clear-cooldown', { agent, profile });
    showResult(`Cleared the cooldown of ${profile}.`, false);
  } catch (error) {
    showResult(`Clearing ${profile} failed: ${error.message}`, true);
  }
  void refresh();
}

function chainRow(agent, candidate, index, answering) {
  const block = (agent.cooldowns || []).find((entry) => entry.candidate === candidate);
  const soonest = block && block.profiles.length > 0 ? block.profiles.reduce((a, b) => (a.untilMs <= b.untilMs ? a : b)) : undefined;
  const li = el('li', { className: answering === candidate ? 'answering' : '' }, [
    el('span', { className: 'rank', text: index === 0 ? 'primary' : `fallback ${index}` }),
    el('code', { text: candidate }),
  ]);
  if (block && block.blocked && soonest) li.append(stateBadge({ lane: soonest.lane, reason: soonest.reason, until: soonest.until }));
  else if (block && !block.blocked) li.append(el('span', { className: 'badge partial', text: 'some profiles cooling' }));
  if (answering === candidate) li.append(el('span', { className: 'badge now', text: 'answering now' }));
  return li;
}

function profileTable(agent) {
  const body = el('tbody');
  for (const profile of agent.profiles || []) {
    const actions = el('td');
    if (!profile.available) {
      const button = el('button', { className: 'small', text: 'Clear cooldown' });
      button.dataset.profile = profile.id;
      button.addEventListener('click', () => void clearCooldown(agent.id, profile.id));
      actions.append(button);
    }
    body.append(
      el('tr', {}, [
        el('td', {}, [el('code', { text: profile.id })]),
        el('td', { text: profile.provider }),
        el('td', { text: profile.type }),
        el('td', {}, [stateBadge(profile.unavailable)]),
        el('td', { className: 'num', text: profile.usageStats && profile.usageStats.errorCount ? profile.usageStats.errorCount : 0 }),
        actions,
      ]),
    );
  }
  if (body.children.length === 0) body.append(el('tr', {}, [el('td', { className: 'muted', text: 'no stored auth profile (inline or keyless providers only)' })]));
  return el('table', { className: 'grid profiles' }, [
    el('thead', {}, [el('tr', {}, ['Profile', 'Provider', 'Type', 'State', 'Errors', ''].map((text) => el('th', { text })))]),
    body,
  ]);
}

function renderAgents(state) {
  const answeringByAgent = new Map((state.answering || []).map((entry) => [entry.agent, entry]));
  const cards = [];
  for (const agent of state.gateway.agents || []) {
    const answer = answeringByAgent.get(agent.id);
    const answering = answer ? `${answer.provider}/${answer.model}` : undefined;
    const card = el('article', { className: 'card' }, [el('h3', { text: `agent ${agent.id}` })]);
    if (agent.store !== 'ok') {
      card.append(el('p', { className: 'problem', text: `store unavailable: ${agent.problem || agent.code || ''}` }));
      cards.push(card);
      continue;
    }
    if (agent.problem) card.append(el('p', { className: 'problem', text: agent.problem }));
    card.append(
      el('p', { className: 'muted' }, [
        document.createTextNode('Answering now: '),
        el('strong', { text: answering ? `${answering}${answer.profile ? ` (${answer.profile})` : ''}` : 'no answer yet' }),
        document.createTextNode(answer ? ` · last at ${clock(answer.atMs)}` : ''),
      ]),
    );
    card.append(el('ol', { className: 'chain' }, (agent.chain || []).map((candidate, index) => chainRow(agent, candidate, index, answering))));
    card.append(profileTable(agent));
    cards.push(card);
  }
  document.getElementById('agents').replaceChildren(...cards);
}

function percent(value) {
  return value === null ? '–' : `${(value * 100).toFixed(1)} %`;
}

function millis(value) {
  return value === null ? '–' : `${Math.round(value)} ms`;
}

function renderProviders(state) {
  const figures = new Map((state.providerFigures || []).map((entry) => [entry.provider, entry]));
  const rows = (state.gateway.providers || []).map((provider) => {
    const figure = figures.get(provider.id) || { attempts: 0, successRate: null, p50Ms: null, p95Ms: null, failovers: 0 };
    return el('tr', {}, [
      el('td', {}, [el('code', { text: provider.id })]),
      el('td', { className: 'muted', text: provider.api }),
      el('td', { className: 'num', text: figure.attempts }),
      el('td', { className: `num ${figure.successRate !== null && figure.successRate < 0.9 ? 'bad' : ''}`, text: percent(figure.successRate) }),
      el('td', { className: 'num', text: millis(figure.p50Ms) }),
      el('td', { className: 'num', text: millis(figure.p95Ms) }),
      el('td', { className: `num ${figure.failovers > 0 ? 'bad' : ''}`, text: figure.failovers }),
    ]);
  });
  document.getElementById('providers').replaceChildren(...rows);
}

/** Keeps a filter's options in step with the values seen, without losing the current choice. */
function syncOptions(select, values) {
  const chosen = select.value;
  const present = [...select.options].map((option) => option.value).filter(Boolean);
  // Rebuilt only when the values changed: an open drop-down is not closed by every poll.
  if (present.length === values.size && present.every((value) => values.has(value))) return;
  const options = [el('option', { text: 'all' })];
  options[0].value = '';
  for (const value of [...values].sort()) {
    const option = el('option', { text: value });
    option.value = value;
    options.push(option);
  }
  select.replaceChildren(...options);
  select.value = values.has(chosen) ? chosen : '';
}

function renderTimeline(state) {
  const decisions = state.decisions || [];
  const agentFilter = document.getElementById('filter-agent');
  const providerFilter = document.getElementById('filter-provider');
  const reasonFilter = document.getElementById('filter-reason');
  syncOptions(agentFilter, new Set(decisions.map((event) => event.agent).filter(Boolean)));
  syncOptions(providerFilter, new Set(decisions.map((event) => event.provider)));
  syncOptions(reasonFilter, new Set(decisions.map((event) => event.reason || event.fallbackStepFromFailureReason).filter(Boolean)));
  const shown = decisions.filter(
    (event) =>
      (!agentFilter.value || event.agent === agentFilter.value) &&
      (!providerFilter.value || event.provider === providerFilter.value) &&
      (!reasonFilter.value || (event.reason || event.fallbackStepFromFailureReason) === reasonFilter.value),
  );
  const rows = shown.slice(0, 200).map((event) => {
    const step = [event.fallbackStepFromModel, event.fallbackStepToModel].filter(Boolean).join(' → ');
    return el('tr', { className: `decision ${event.decision}` }, [
      el('td', { text: clock(event.atMs) }),
      el('td', { text: event.agent || '–' }),
      el('td', { text: event.decision.replaceAll('_', ' ') }),
      el('td', {}, [el('code', { text: `${event.provider}/${event.model}` })]),
      el('td', { text: event.profile || '–' }),
      el('td', { text: [event.reason || event.fallbackStepFromFailureReason, event.status].filter(Boolean).join(' ') || '–' }),
      el('td', { text: `${step}${event.fallbackStepFinalOutcome ? ` (${event.fallbackStepFinalOutcome.replaceAll('_', ' ')})` : ''}` }),
    ]);
  });
  document.getElementById('timeline').replaceChildren(...rows);
  document.getElementById('timeline-empty').hidden = rows.length > 0;
}

function renderResetAgents(state) {
  const select = document.getElementById('reset-agent');
  const ids = new Set((state.gateway.agents || []).map((agent) => agent.id));
  if (select.options.length === ids.size) return;
  syncOptions(select, ids);
  select.options[0].remove();
  select.value = ids.has('main') ? 'main' : select.options[0]?.value || '';
}

function render(state) {
  const gateway = state.gateway;
  document.getElementById('gateway-summary').textContent =
    `${gateway.status} · up ${Math.floor(gateway.uptimeSeconds / 60)} min · ${gateway.inFlight} in flight · updated ${clock(state.nowMs)}`;
  renderAgents(state);
  renderProviders(state);
  renderTimeline(state);
  renderResetAgents(state);
}

async function refresh() {
  const live = document.getElementById('live');
  const problem = document.getElementById('problem');
  try {
    const response = await fetch('/ui/api/state', { credentials: 'same-origin', cache: 'no-store' });
    if (response.status === 401) {
      window.location.assign('/ui');
      return;
    }
    if (!response.ok) throw new Error(`the gateway answered ${response.status}`);
    last = await response.json();
    csrfToken = last.csrfToken;
    skewMs = last.nowMs - Date.now();
    render(last);
    live.className = 'live on';
    problem.hidden = true;
  } catch (error) {
    live.className = 'live off';
    problem.textContent = `Cannot read the gateway's state: ${error.message}`;
    problem.hidden = false;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  for (const id of ['filter-agent', 'filter-provider', 'filter-reason']) {
    document.getElementById(id).addEventListener('change', () => last && renderTimeline(last));
  }
  document.getElementById('reset-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const agent = document.getElementById('reset-agent').value;
    const session = document.getElementById('reset-key').value.trim();
    if (!session || !window.confirm(`Reset session "${session}" of agent ${agent}? Its model override, pinned profile and fallback state are cleared.`)) return;
    post('/ui/api/reset-session', { agent, session })
      .then(() => showResult(`Session "${session}" reset.`, false))
      .catch((error) => showResult(`Resetting "${session}" failed: ${error.message}`, true));
  });
  void refresh();
  setInterval(() => void refresh(), POLL_MS);
  setInterval(tick, 250);
});
