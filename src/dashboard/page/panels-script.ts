// Browser-side rendering of the side panels and the unscheduled lane (FailedScheduling reasons), as app.js source.

export const PANELS_SCRIPT = String.raw`function renderLane(pods) {
  var items = pods.map(function (p) {
    var fit = splitFitError(p.message);
    var why = fit
      ? '<div class="why-head">' + esc(fit.head) + '</div><ul class="why-list">' + fit.reasons.map(function (r) { return '<li>' + esc(r) + '</li>'; }).join('') + '</ul>' +
        (fit.more ? '<div class="why-more">' + esc(fit.more) + '</div>' : '')
      : '<div class="why-head">' + esc(p.message || 'waiting for the scheduler…') + '</div>';
    var tags = [];
    if (p.os) tags.push('<span class="tag os-' + esc(p.os) + '">os=' + esc(p.os) + '</span>');
    tags.push('<span class="tag">cpu ' + fmtCpu(p.cpuMilli) + ' · mem ' + fmtBytes(p.memoryBytes) + '</span>');
    if (p.owner) tags.push('<span class="tag">' + esc(p.owner) + '</span>');
    return '<div class="pend" title="' + esc(p.message) + '"><div class="pend-head"><i class="chip-dot ph-pending"></i><span class="pend-name">' + esc(p.namespace + '/' + p.name) + '</span>' +
      (p.reason ? '<span class="reason">' + esc(p.reason) + '</span>' : '') + '<span class="faint">' + when(p.since || p.created) + '</span></div>' +
      '<div class="tags">' + tags.join('') + '</div>' + why + '</div>';
  });
  return '<div class="lane-head"><h2>Waiting for a node</h2><span class="muted">' + pods.length + ' pod' + (pods.length === 1 ? '' : 's') + ' the scheduler could not place</span></div><div class="lane-items">' + items.join('') + '</div>';
}

function renderWorkloads(deps) {
  var body = deps.length ? deps.map(function (d) {
    var pips = '';
    if (d.desired <= 30) for (var i = 0; i < d.desired; i++) pips += '<span class="pip' + (i < d.ready ? ' on' : '') + '"></span>';
    else pips = '<div class="bar" style="flex:1"><span style="width:' + pct(d.ready, d.desired) + '%"></span></div>';
    var cls = d.ready >= d.desired ? '' : d.ready === 0 ? 'zero' : 'short';
    return '<div class="dep"><div class="dep-name">' + esc(d.name) + ' <span class="faint">' + esc(d.namespace) + '</span>' + (d.os ? ' <span class="tag os-' + esc(d.os) + '">' + esc(d.os) + '</span>' : '') + '</div>' +
      '<div class="dep-count ' + cls + '" title="ready / desired · ' + d.updated + ' updated · ' + d.available + ' available">' + d.ready + '/' + d.desired + '</div>' +
      '<div class="pips">' + pips + '</div>' + (d.problem ? '<div class="dep-problem">' + esc(d.problem) + '</div>' : '') + '</div>';
  }).join('') : '<div class="empty">No Deployments.</div>';
  return '<div class="panel-head"><h2>Deployments</h2><span class="count">ready / desired</span></div>' + body;
}

/** kubectl's "kind/namespace/name" spelling of the involved object. */
function objectRef(e) {
  var slash = e.object.indexOf('/');
  return e.object.slice(0, slash).toLowerCase() + '/' + (e.namespace ? e.namespace + '/' : '') + e.object.slice(slash + 1);
}

function renderEvents(events) {
  var out = '', lastType = '';
  var warnings = events.filter(function (e) { return e.type === 'Warning'; }).length;
  events.forEach(function (e) {
    var group = e.type === 'Warning' ? 'Warning' : 'Normal';
    if (warnings && group !== lastType) out += '<div class="ev-sep">' + (group === 'Warning' ? 'Warnings' : 'Normal') + '</div>';
    lastType = group;
    out += '<div class="ev ' + (group === 'Warning' ? 'warning' : '') + '"><span class="ev-type">' + (group === 'Warning' ? 'WARN' : 'INFO') + '</span>' +
      '<span class="ev-reason">' + esc(e.reason) + '</span><span class="ev-when">' + when(e.last) + (e.count > 1 ? ' ×' + e.count : '') + '</span>' +
      '<span class="ev-obj" title="' + esc(e.source) + '">' + esc(objectRef(e)) + '</span>' +
      '<span class="ev-msg" title="' + esc(e.message) + '">' + esc(e.message) + '</span></div>';
  });
  return '<div class="panel-head"><h2>Recent events</h2><span class="count">' + (warnings ? warnings + ' warning' + (warnings === 1 ? '' : 's') + ' · ' : '') + events.length + ' shown</span></div>' +
    '<div class="events-list">' + (out || '<div class="empty">No events yet.</div>') + '</div>';
}
`;
