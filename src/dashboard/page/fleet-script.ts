// Browser-side rendering of the fleet: node cards grouped by OS, meters, taints and pod chips, as app.js source.

export const FLEET_SCRIPT = String.raw`
function chip(p) {
  var cls = podClass(p);
  var label = (p.namespace !== 'default' ? '<span class="ns">' + esc(p.namespace) + '/</span>' : '') + esc(p.name);
  var why = p.status && p.status !== p.phase ? '<span class="why">' + esc(p.status) + '</span>' : '';
  var tip = p.namespace + '/' + p.name + '\n' + p.status + ' · ready ' + p.ready + ' · ' + p.restarts + ' restart' + (p.restarts === 1 ? '' : 's') +
    '\nrequests: cpu ' + fmtCpu(p.cpuMilli) + ', memory ' + fmtBytes(p.memoryBytes) + (p.owner ? '\nowner: ' + p.owner : '') + (p.os ? '\nnodeSelector: kubernetes.io/os=' + p.os : '');
  return '<span class="chip ' + cls + '" title="' + esc(tip) + '"><i class="chip-dot ' + cls + '"></i><span class="nm">' + label + '</span>' + why + '</span>';
}

function meter(label, used, total, text) {
  var p = pct(used, total);
  return '<span class="lbl">' + label + '</span><div class="bar ' + (p >= 90 ? 'high' : p >= 70 ? 'mid' : '') + '" title="' + p + '% requested"><span style="width:' + p + '%"></span></div><span class="num">' + text + '</span>';
}

function taintTag(t) {
  var text = t.key + (t.value ? '=' + t.value : '') + ':' + t.effect;
  return '<span class="tag taint' + (t.effect === 'NoExecute' ? ' noexec' : '') + '" title="taint">' + esc(text) + '</span>';
}

function nodeCard(n, showSystem) {
  var ready = n.ready === 'True';
  var state = '<span class="state ' + (ready ? 'ready' : 'notready') + '" title="' + esc(n.readyMessage) + '">' + (ready ? 'Ready' : n.ready === 'False' ? 'NotReady' : 'Unknown') + '</span>';
  if (n.cordoned) state += '<span class="state cordon" title="spec.unschedulable">Cordoned</span>';
  var osLine = n.windows
    ? '<span class="tag build ' + releaseClass(n.windows.release) + '">' + esc(n.windows.release) + '</span><span class="mono">' + esc(n.windows.build + (n.windows.ubr ? '.' + n.windows.ubr : '')) + '</span><span>' + esc(n.windows.product) + '</span>'
    : '<span>' + esc(n.osImage || n.os) + '</span>';
  var tags = n.roles.map(function (r) { return '<span class="tag role">' + esc(r) + '</span>'; })
    .concat(n.taints.map(taintTag), n.pressure.map(function (c) { return '<span class="tag pressure">' + esc(c) + '</span>'; }));
  var pods = n.pods.filter(function (p) { return showSystem || !isSystem(p.namespace); });
  var hidden = n.pods.length - pods.length;
  var runtime = String(n.containerRuntime).replace('://', ' ');
  return '<article class="card os-' + esc(n.os) + (ready ? '' : ' notready') + '">' +
    '<div class="card-head">' + osIcon(n.os) + '<span class="node-name" title="' + esc(n.name) + '">' + esc(n.name) + '</span>' + state + '</div>' +
    '<div class="os-line">' + osLine + '</div>' +
    '<div class="os-line faint">' + esc([n.kubeletVersion, runtime, n.internalIP, n.arch].filter(Boolean).join(' · ')) + '</div>' +
    (tags.length ? '<div class="tags">' + tags.join('') + '</div>' : '') +
    '<div class="meters">' +
      meter('CPU', n.cpu.requestedMilli, n.cpu.allocatableMilli, '<b>' + fmtCpu(n.cpu.requestedMilli) + '</b> / ' + fmtCpu(n.cpu.allocatableMilli)) +
      meter('MEM', n.memory.requestedBytes, n.memory.allocatableBytes, '<b>' + fmtBytes(n.memory.requestedBytes) + '</b> / ' + fmtBytes(n.memory.allocatableBytes)) +
      meter('PODS', n.podsActive, n.podsAllocatable, '<b>' + n.podsActive + '</b> / ' + n.podsAllocatable) +
    '</div>' +
    '<div class="pods">' + (pods.length ? pods.map(chip).join('') : '<span class="none">no pods</span>') +
      (hidden ? '<span class="none">+' + hidden + ' system</span>' : '') + '</div>' +
  '</article>';
}

/** Requested share of the group's allocatable CPU and memory: how full this half of the fleet is. */
function groupUse(nodes) {
  var c = [0, 0], m = [0, 0];
  nodes.forEach(function (n) { c[0] += n.cpu.requestedMilli; c[1] += n.cpu.allocatableMilli; m[0] += n.memory.requestedBytes; m[1] += n.memory.allocatableBytes; });
  function one(label, used, total, text) {
    var p = pct(used, total);
    return '<span title="' + esc(text) + ' requested">' + label + '<span class="mini"><span style="width:' + p + '%"></span></span>' + p + '%</span>';
  }
  return '<div class="group-use">' + one('cpu', c[0], c[1], fmtCpu(c[0]) + ' of ' + fmtCpu(c[1]) + ' cores') + one('mem', m[0], m[1], fmtBytes(m[0]) + ' of ' + fmtBytes(m[1])) + '</div>';
}

var OS_NAMES = { linux: 'Linux', windows: 'Windows' };

function renderFleet(nodes, showSystem) {
  if (!nodes.length) return '<div class="panel empty">No nodes have registered yet.</div>';
  var groups = [];
  nodes.forEach(function (n) {
    var g = groups[groups.length - 1];
    if (!g || g.os !== n.os) groups.push(g = { os: n.os, nodes: [] });
    g.nodes.push(n);
  });
  return groups.map(function (g) {
    var ready = g.nodes.filter(function (n) { return n.ready === 'True'; }).length;
    var meta = ['<span>' + g.nodes.length + ' node' + (g.nodes.length === 1 ? '' : 's') + '</span>', '<span>' + ready + ' Ready</span>'];
    if (g.os === 'windows') {
      var mix = {};
      g.nodes.forEach(function (n) { mix[n.windows.release] = (mix[n.windows.release] || 0) + 1; });
      Object.keys(mix).sort().forEach(function (r) { meta.push('<span><span class="tag build ' + releaseClass(r) + '">' + esc(r) + '</span> ×' + mix[r] + '</span>'); });
    }
    return '<div class="os-group"><div class="os-head">' + osIcon(g.os) + '<h2>' + esc(OS_NAMES[g.os] || g.os) + '</h2><div class="os-meta">' + meta.join('<span class="faint">·</span>') + '</div>' + groupUse(g.nodes) + '</div>' +
      '<div class="cards">' + g.nodes.map(function (n) { return nodeCard(n, showSystem); }).join('') + '</div></div>';
  }).join('');
}
`;
