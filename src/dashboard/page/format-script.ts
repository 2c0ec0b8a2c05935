// Browser-side helpers of the dashboard (escaping, units, ages, icons), as source text for app.js.
// Written without template literals so it can live inside String.raw; the server sends it as is.

export const FORMAT_SCRIPT = String.raw`
var ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
function esc(s) { return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) { return ESC[c]; }); }

function trimNum(n, digits) { return n.toFixed(digits).replace(/\.?0+$/, ''); }
function fmtCpu(m) { return m < 1000 ? m + 'm' : trimNum(m / 1000, 2); }
function fmtBytes(b) {
  var GI = 1073741824, MI = 1048576;
  if (b >= GI) return trimNum(b / GI, 1) + ' GiB';
  if (b >= MI) return Math.round(b / MI) + ' MiB';
  if (b >= 1024) return Math.round(b / 1024) + ' KiB';
  return b + ' B';
}
function pct(part, whole) { return whole > 0 ? Math.min(100, Math.round(part / whole * 100)) : 0; }

/** "12s", "5m", "3h", "2d": the short ages kubectl prints. */
function ago(ts) {
  if (!ts) return '';
  var s = Math.max(0, Math.floor((Date.now() - Date.parse(ts)) / 1000));
  if (s < 60) return s + 's';
  if (s < 3600) return Math.floor(s / 60) + 'm';
  if (s < 86400) return Math.floor(s / 3600) + 'h';
  return Math.floor(s / 86400) + 'd';
}
function when(ts, suffix) { return '<span data-ts="' + esc(ts || '') + '" data-suffix="' + esc(suffix || '') + '">' + esc(ago(ts)) + esc(ts ? suffix || '' : '') + '</span>'; }

var ICONS = {
  windows: '<svg class="os-icon" viewBox="0 0 16 16" aria-label="Windows"><rect x="1" y="1" width="6.5" height="6.5" rx="1" fill="#4aa3ff"/><rect x="8.5" y="1" width="6.5" height="6.5" rx="1" fill="#4aa3ff" opacity=".85"/><rect x="1" y="8.5" width="6.5" height="6.5" rx="1" fill="#4aa3ff" opacity=".85"/><rect x="8.5" y="8.5" width="6.5" height="6.5" rx="1" fill="#4aa3ff" opacity=".7"/></svg>',
  linux: '<svg class="os-icon" viewBox="0 0 16 16" aria-label="Linux"><rect x="1" y="2" width="14" height="12" rx="2.2" fill="none" stroke="#f2a93b" stroke-width="1.4"/><path d="M4 6l2.4 2L4 10" fill="none" stroke="#f2a93b" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round"/><path d="M8 10.5h4" stroke="#f2a93b" stroke-width="1.4" stroke-linecap="round"/></svg>',
  other: '<svg class="os-icon" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6" fill="none" stroke="#8d9bba" stroke-width="1.4"/></svg>'
};
function osIcon(os) { return ICONS[os] || ICONS.other; }

/** CSS class of a Windows release tag: one colour per LTSC so the build mix reads at a glance. */
function releaseClass(release) { return /^WS20(19|22|25)$/.test(release) ? release.toLowerCase() : 'other'; }

var SYSTEM_NAMESPACES = { 'kube-system': 1, 'kube-public': 1, 'kube-node-lease': 1 };
function isSystem(ns) { return Object.prototype.hasOwnProperty.call(SYSTEM_NAMESPACES, ns); }

/** The chip colour: phase, except Terminating, and Running pods whose containers are not all ready. */
function podClass(p) {
  if (p.status === 'Terminating') return 'ph-terminating';
  if (p.phase === 'Running') {
    var r = String(p.ready).split('/');
    return r[0] === r[1] && r[1] !== '0' ? 'ph-running' : 'ph-notready';
  }
  return { Pending: 'ph-pending', Succeeded: 'ph-succeeded', Failed: 'ph-failed' }[p.phase] || 'ph-unknown';
}

/** Splits the scheduler's FitError text ("0/5 nodes are available: 2 Insufficient cpu, 3 ... . preemption: ...") */
function splitFitError(msg) {
  var m = /^(\d+\/\d+ nodes are available): ([\s\S]*?)\.?(?:\s+(preemption:[\s\S]*))?$/.exec(msg || '');
  if (!m) return null;
  return { head: m[1], reasons: m[2].split(/, (?=\d+ )/), more: m[3] || '' };
}
`;
