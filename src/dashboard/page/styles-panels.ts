// Styles of the unscheduled lane, the Deployments and events panels, and the footer legend.

export const PANEL_STYLES = String.raw`/* unscheduled lane */
.lane { background: linear-gradient(180deg, rgba(251, 191, 36, .07), rgba(251, 191, 36, .02)); border: 1px solid rgba(251, 191, 36, .35); border-radius: var(--radius); padding: 12px 14px; }
.lane-head { display: flex; align-items: baseline; gap: 10px; margin-bottom: 10px; }
.lane-head h2 { color: var(--warn); }
.lane-items { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 10px; }
.pend { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; display: flex; flex-direction: column; gap: 6px; }
.pend-head { display: flex; align-items: center; gap: 8px; }
.pend-name { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; flex: 1; min-width: 0; }
.reason { font-size: 11px; font-weight: 600; color: var(--warn); background: rgba(251, 191, 36, .12); padding: 1px 7px; border-radius: 5px; }
.why-head { color: var(--text); font-size: 12px; }
.why-list { margin: 0; padding-left: 16px; color: var(--muted); font-size: 12px; }
.why-list li::marker { color: var(--warn); }
.why-more { color: var(--faint); font-size: 11.5px; }

/* workloads */
.dep { padding: 10px 14px; border-bottom: 1px solid var(--line); display: grid; grid-template-columns: 1fr auto; gap: 4px 10px; align-items: center; }
.dep:last-child { border-bottom: 0; }
.dep-name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.dep-count { font-variant-numeric: tabular-nums; font-weight: 600; }
.dep-count.short { color: var(--warn); }
.dep-count.zero { color: var(--bad); }
.pips { grid-column: 1 / -1; display: flex; gap: 3px; flex-wrap: wrap; }
.pip { width: 14px; height: 6px; border-radius: 2px; background: var(--line-2); }
.pip.on { background: var(--ok); }
.dep-problem { grid-column: 1 / -1; color: var(--bad); font-size: 11.5px; }

/* events */
.events-list { max-height: calc(100vh - 380px); min-height: 200px; overflow-y: auto; }
.ev { padding: 9px 14px; border-bottom: 1px solid var(--line); display: grid; grid-template-columns: auto 1fr auto; gap: 2px 8px; align-items: baseline; }
.ev-type { font-size: 10.5px; font-weight: 700; letter-spacing: .04em; padding: 0 6px; border-radius: 4px; color: var(--muted); background: var(--panel-2); }
.ev.warning { background: rgba(248, 113, 113, .05); }
.ev.warning .ev-type { color: var(--bad); background: rgba(248, 113, 113, .14); }
.ev-reason { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ev-when { color: var(--faint); font-size: 11px; white-space: nowrap; }
.ev-obj { grid-column: 2 / -1; color: var(--info); font-family: var(--mono); font-size: 11px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.ev-msg { grid-column: 2 / -1; color: var(--muted); font-size: 12px; overflow-wrap: anywhere; display: -webkit-box; -webkit-line-clamp: 3; -webkit-box-orient: vertical; overflow: hidden; }
.ev-sep { padding: 5px 14px; font-size: 10.5px; letter-spacing: .08em; text-transform: uppercase; color: var(--faint); background: var(--panel-2); border-bottom: 1px solid var(--line); }

.foot { display: flex; justify-content: space-between; flex-wrap: wrap; gap: 8px; padding: 10px 24px 22px; color: var(--faint); font-size: 11.5px; }
.legend { display: flex; gap: 6px 14px; flex-wrap: wrap; align-items: center; }
.legend .chip-dot { margin-right: -8px; }
`;
