// The dashboard's browser script: follows /api/stream (polling /api/snapshot where EventSource is missing) and renders.

import { FORMAT_SCRIPT } from './format-script.js';
import { FLEET_SCRIPT } from './fleet-script.js';
import { PANELS_SCRIPT } from './panels-script.js';
import { SUMMARY_SCRIPT } from './summary-script.js';

const MAIN_SCRIPT = String.raw`
var state = { snap: null, showSystem: false };
try { state.showSystem = localStorage.getItem('winkube.showSystem') === '1'; } catch (e) { /* storage disabled */ }

function $(id) { return document.getElementById(id); }

function render() {
  var snap = state.snap;
  if (!snap) return;
  RELEASES = {};
  snap.nodes.forEach(function (n) { if (n.windows) RELEASES[n.windows.build] = n.windows.release; });
  $('summary').innerHTML = renderSummary(snap.summary);
  var lane = $('lane');
  var waiting = snap.unscheduled.filter(function (p) { return state.showSystem || !isSystem(p.namespace); });
  lane.hidden = waiting.length === 0;
  lane.innerHTML = waiting.length ? renderLane(waiting) : '';
  $('fleet').innerHTML = renderFleet(snap.nodes, state.showSystem);
  $('workloads').innerHTML = renderWorkloads(snap.deployments);
  var list = document.querySelector('.events-list');
  var scroll = list ? list.scrollTop : 0;
  $('events').innerHTML = renderEvents(snap.events);
  list = document.querySelector('.events-list');
  if (list) list.scrollTop = scroll;
  tick();
}

function setLive(s, text) {
  var el = $('live');
  el.setAttribute('data-state', s);
  el.querySelector('.live-text').textContent = text;
}

/** Refreshes every relative time in place, so ages move between snapshots without a re-render. */
function tick() {
  var nodes = document.querySelectorAll('[data-ts]');
  for (var i = 0; i < nodes.length; i++) {
    var ts = nodes[i].getAttribute('data-ts');
    if (ts) nodes[i].textContent = ago(ts) + (nodes[i].getAttribute('data-suffix') || '');
  }
  if (state.snap && $('live').getAttribute('data-state') === 'live') setLive('live', 'live · changed ' + ago(state.snap.generatedAt) + ' ago');
}

function accept(json) {
  try { state.snap = JSON.parse(json); } catch (e) { return; }
  render();
}

function follow() {
  if (!window.EventSource) return poll();
  var es = new EventSource('/api/stream');
  es.addEventListener('snapshot', function (ev) { setLive('live', 'live'); accept(ev.data); });
  es.onopen = function () { setLive('live', 'live'); };
  // EventSource reconnects by itself (the server sends retry:); say so meanwhile.
  es.onerror = function () { setLive('down', 'reconnecting…'); };
}

function poll() {
  fetch('/api/snapshot', { cache: 'no-store' }).then(function (r) { return r.text(); })
    .then(function (t) { setLive('live', 'live'); accept(t); }, function () { setLive('down', 'unreachable'); })
    .then(function () { setTimeout(poll, 2000); });
}

document.addEventListener('DOMContentLoaded', function () {
  var box = $('show-system');
  box.checked = state.showSystem;
  box.addEventListener('change', function () {
    state.showSystem = box.checked;
    try { localStorage.setItem('winkube.showSystem', box.checked ? '1' : '0'); } catch (e) { /* storage disabled */ }
    render();
  });
  setInterval(tick, 1000);
  follow();
});
`;

/** app.js: helpers, renderers and the main loop in one strict-mode function scope. */
export const APP_SCRIPT = `(function () {\n'use strict';\n${FORMAT_SCRIPT}\n${SUMMARY_SCRIPT}\n${FLEET_SCRIPT}\n${PANELS_SCRIPT}\n${MAIN_SCRIPT}\n})();\n`;
