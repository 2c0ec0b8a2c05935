// The dashboard's stylesheet: a dark, dense-but-calm layout; OS accents (Linux amber, Windows blue) and phase colours.

import { FLEET_STYLES } from './styles-fleet.js';
import { PANEL_STYLES } from './styles-panels.js';

const BASE_STYLES = String.raw`
:root {
  --bg: #0b1120; --panel: #111a2e; --panel-2: #16213a; --line: #22304f; --line-2: #2c3c60;
  --text: #e5eaf5; --muted: #8d9bba; --faint: #5d6b8a;
  --linux: #f2a93b; --windows: #4aa3ff; --ws2019: #4aa3ff; --ws2022: #a78bfa; --ws2025: #2dd4bf;
  --ok: #34d399; --warn: #fbbf24; --bad: #f87171; --info: #60a5fa; --done: #64748b;
  --radius: 10px;
  --mono: ui-monospace, "SF Mono", "JetBrains Mono", "Cascadia Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--text); }
body { font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; -webkit-font-smoothing: antialiased; }
[hidden] { display: none !important; }
h2 { font-size: 12px; font-weight: 600; letter-spacing: .08em; text-transform: uppercase; color: var(--muted); margin: 0; }
.mono { font-family: var(--mono); font-size: 12px; }
.muted { color: var(--muted); }
.faint { color: var(--faint); }

/* header */
.top { display: flex; align-items: center; justify-content: space-between; padding: 14px 24px; border-bottom: 1px solid var(--line); background: linear-gradient(180deg, #0f1830, var(--bg)); position: sticky; top: 0; z-index: 5; }
.brand { display: flex; align-items: center; gap: 10px; }
.logo { width: 28px; height: 28px; }
.brand-name { font-size: 17px; font-weight: 700; letter-spacing: -.01em; }
.brand-sub { color: var(--muted); font-size: 12px; padding-left: 10px; border-left: 1px solid var(--line-2); }
.top-right { display: flex; align-items: center; gap: 18px; }
.toggle { color: var(--muted); font-size: 12px; display: flex; gap: 6px; align-items: center; cursor: pointer; user-select: none; }
.toggle input { accent-color: var(--info); }
.live { display: flex; align-items: center; gap: 8px; font-size: 12px; color: var(--muted); padding: 4px 10px; border: 1px solid var(--line); border-radius: 999px; background: var(--panel); }
.live .dot { width: 8px; height: 8px; border-radius: 50%; background: var(--faint); }
.live[data-state="live"] .dot { background: var(--ok); box-shadow: 0 0 0 0 rgba(52, 211, 153, .6); animation: pulse 2s infinite; }
.live[data-state="down"] .dot { background: var(--warn); }
@keyframes pulse { 0% { box-shadow: 0 0 0 0 rgba(52, 211, 153, .5); } 70% { box-shadow: 0 0 0 7px rgba(52, 211, 153, 0); } 100% { box-shadow: 0 0 0 0 rgba(52, 211, 153, 0); } }

/* summary strip */
.summary { display: grid; grid-template-columns: repeat(auto-fit, minmax(190px, 1fr)); gap: 12px; padding: 16px 24px 4px; }
.stat { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 12px 14px; display: flex; gap: 12px; align-items: center; min-height: 78px; }
.stat-body { min-width: 0; flex: 1; }
.stat-label { color: var(--muted); font-size: 11px; text-transform: uppercase; letter-spacing: .08em; }
.stat-value { font-size: 24px; font-weight: 650; letter-spacing: -.02em; line-height: 1.2; font-variant-numeric: tabular-nums; }
.stat-value small { font-size: 13px; color: var(--muted); font-weight: 500; }
.stat-sub { color: var(--muted); font-size: 12px; display: flex; flex-wrap: wrap; gap: 4px 10px; }
.stat.alert { border-color: rgba(248, 113, 113, .45); background: linear-gradient(180deg, rgba(248, 113, 113, .08), var(--panel)); }
.stat.alert .stat-value { color: var(--bad); }
.split { flex-basis: 100%; display: flex; height: 6px; border-radius: 3px; overflow: hidden; background: var(--line); margin-top: 6px; }
.split > span { display: block; height: 100%; }
.donut { width: 54px; height: 54px; flex: none; }
.kv { white-space: nowrap; }
.kv b { color: var(--text); font-weight: 600; }
.sw { display: inline-block; width: 8px; height: 8px; border-radius: 2px; margin-right: 4px; vertical-align: 0; }

/* layout */
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 380px; gap: 16px; padding: 12px 24px 24px; align-items: start; }
@media (max-width: 1100px) { .layout { grid-template-columns: 1fr; } .col-side { position: static; } }
.col-main, .col-side { display: flex; flex-direction: column; gap: 16px; min-width: 0; }
.col-side { position: sticky; top: 70px; }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); overflow: hidden; }
.panel-head { display: flex; justify-content: space-between; align-items: baseline; padding: 12px 14px 10px; border-bottom: 1px solid var(--line); }
.panel-head .count { color: var(--muted); font-size: 12px; }
.empty { color: var(--faint); padding: 16px 14px; font-size: 12px; }
`;

export const STYLES = [BASE_STYLES, FLEET_STYLES, PANEL_STYLES].join('\n');
