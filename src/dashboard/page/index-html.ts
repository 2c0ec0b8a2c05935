// The dashboard's HTML shell; app.js fills the sections from /api/stream.

/** A hexagon (the Kubernetes shape) holding a four-pane window: mixed Linux + Windows. */
export const LOGO_SVG =
  '<svg class="logo" viewBox="0 0 32 32" aria-hidden="true"><path d="M16 2 28.1 9v14L16 30 3.9 23V9z" fill="#326ce5"/>' +
  '<rect x="10" y="10" width="5.4" height="5.4" rx=".8" fill="#fff"/><rect x="16.6" y="10" width="5.4" height="5.4" rx=".8" fill="#fff" opacity=".85"/>' +
  '<rect x="10" y="16.6" width="5.4" height="5.4" rx=".8" fill="#fff" opacity=".85"/><rect x="16.6" y="16.6" width="5.4" height="5.4" rx=".8" fill="#fff" opacity=".7"/></svg>';

const FAVICON = `data:image/svg+xml,${encodeURIComponent(LOGO_SVG.replace(' class="logo"', ' xmlns="http://www.w3.org/2000/svg"'))}`;

export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>winkube · cluster</title>
<link rel="icon" href="${FAVICON}">
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>
</head>
<body>
<header class="top">
  <div class="brand">${LOGO_SVG}<span class="brand-name">winkube</span><span class="brand-sub">mixed Linux + Windows cluster</span></div>
  <div class="top-right">
    <label class="toggle"><input type="checkbox" id="show-system"> system pods</label>
    <div id="live" class="live" data-state="connecting"><span class="dot"></span><span class="live-text">connecting…</span></div>
  </div>
</header>
<section id="summary" class="summary" aria-label="Cluster summary"></section>
<main class="layout">
  <div class="col-main">
    <section id="lane" class="lane" aria-label="Pods waiting for a node" hidden></section>
    <section id="fleet" class="fleet" aria-label="Nodes"></section>
  </div>
  <aside class="col-side">
    <section id="workloads" class="panel" aria-label="Deployments"></section>
    <section id="events" class="panel" aria-label="Recent events"></section>
  </aside>
</main>
<footer class="foot">
  <span class="legend"><i class="chip-dot ph-running"></i>Running <i class="chip-dot ph-notready"></i>Running, not ready
  <i class="chip-dot ph-pending"></i>Pending <i class="chip-dot ph-succeeded"></i>Succeeded <i class="chip-dot ph-failed"></i>Failed
  <i class="chip-dot ph-terminating"></i>Terminating</span>
  <span>read-only view · requests vs allocatable as the scheduler counts them</span>
</footer>
<noscript>The winkube dashboard needs JavaScript.</noscript>
</body>
</html>
`;
