// Browser-side rendering of the summary strip (counts, Linux/Windows split, build mix, pod-phase ring), as app.js source.

export const SUMMARY_SCRIPT = String.raw`
/** Filled from the nodes of each snapshot: build → short release name, for the summary's build list. */
var RELEASES = {};


function stat(label, value, sub, extra, cls) {
  return '<div class="stat ' + (cls || '') + '">' + (extra || '') + '<div class="stat-body"><div class="stat-label">' + esc(label) +
    '</div>' + (value ? '<div class="stat-value">' + value + '</div>' : '') + '<div class="stat-sub">' + (sub || '') + '</div></div></div>';
}

/** A ring of pod phases; circumference 2πr split by stroke-dasharray. */
function donut(parts, total) {
  var r = 21, c = 2 * Math.PI * r, off = 0, out = '<svg class="donut" viewBox="0 0 54 54"><circle cx="27" cy="27" r="21" fill="none" stroke="#22304f" stroke-width="6"/>';
  parts.forEach(function (p) {
    if (!p.n || !total) return;
    var len = p.n / total * c;
    out += '<circle cx="27" cy="27" r="21" fill="none" stroke="' + p.color + '" stroke-width="6" stroke-dasharray="' + len.toFixed(2) + ' ' + (c - len).toFixed(2) +
      '" stroke-dashoffset="' + (-off).toFixed(2) + '" transform="rotate(-90 27 27)"/>';
    off += len;
  });
  return out + '<text x="27" y="31" text-anchor="middle" font-size="12" font-weight="600" fill="#e5eaf5">' + total + '</text></svg>';
}

function renderSummary(s) {
  var builds = Object.keys(s.windowsBuilds).sort();
  var buildHtml = builds.length ? builds.map(function (b) {
    var rel = RELEASES[b] || b;
    return '<span class="kv"><span class="tag build ' + releaseClass(rel) + '">' + esc(rel) + '</span> <b>' + s.windowsBuilds[b] + '</b> <span class="faint">' + esc(b) + '</span></span>';
  }).join('') : '<span class="faint">no Windows nodes</span>';
  var split = '<div class="split"><span style="width:' + pct(s.linuxNodes, s.nodes) + '%;background:var(--linux)"></span><span style="width:' + pct(s.windowsNodes, s.nodes) + '%;background:var(--windows)"></span></div>';
  var phases = [
    { n: s.running, color: '#34d399', label: 'running' }, { n: s.pending, color: '#fbbf24', label: 'pending' },
    { n: s.failed, color: '#f87171', label: 'failed' }, { n: s.succeeded, color: '#64748b', label: 'done' }];
  var podSub = phases.filter(function (p) { return p.n; }).map(function (p) {
    return '<span class="kv"><i class="sw" style="background:' + p.color + '"></i><b>' + p.n + '</b> ' + p.label + '</span>';
  }).join('') || '<span class="faint">no pods</span>';
  return [
    stat('Nodes', s.nodes + ' <small>' + s.readyNodes + ' Ready</small>', '<span class="kv"><i class="sw" style="background:var(--linux)"></i><b>' + s.linuxNodes + '</b> Linux</span><span class="kv"><i class="sw" style="background:var(--windows)"></i><b>' + s.windowsNodes + '</b> Windows</span>' + split, '', s.readyNodes < s.nodes ? 'alert' : ''),
    stat('Windows builds', '', buildHtml, '', 'builds'),
    stat('Pods', '', podSub, donut(phases, s.pods)),
    stat('Waiting for a node', String(s.unscheduled), s.unscheduled ? 'see the lane below' : 'every pod is placed', '', s.unscheduled ? 'alert' : ''),
    stat('Deployments', s.deploymentsReady + '<small> / ' + s.deployments + ' ready</small>', s.deployments ? '' : '<span class="faint">none</span>', '', s.deploymentsReady < s.deployments ? 'alert' : ''),
    stat('Warnings', String(s.warnings), 'among recent events', '', s.warnings ? 'alert' : '')
  ].join('');
}
`;
