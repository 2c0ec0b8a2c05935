// Styles of the fleet: OS groups, node cards, meters, tags and the pod chips' phase colours.

export const FLEET_STYLES = String.raw`/* fleet */
.group-use { display: flex; gap: 14px; color: var(--muted); font-size: 11.5px; white-space: nowrap; }
.group-use .mini { display: inline-block; width: 56px; height: 5px; border-radius: 3px; background: var(--line); overflow: hidden; vertical-align: 1px; margin: 0 5px; }
.group-use .mini > span { display: block; height: 100%; background: var(--ok); }
.os-group + .os-group { margin-top: 18px; }
.os-head { display: flex; align-items: center; gap: 10px; margin: 4px 2px 10px; }
.os-head h2 { color: var(--text); font-size: 13px; }
.os-head .os-meta { flex: 1; color: var(--muted); font-size: 12px; display: flex; gap: 8px; flex-wrap: wrap; }
.os-icon { width: 18px; height: 18px; flex: none; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 12px; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 12px 14px 12px 16px; position: relative; overflow: hidden; display: flex; flex-direction: column; gap: 8px; }
.card::before { content: ""; position: absolute; left: 0; top: 0; bottom: 0; width: 3px; background: var(--linux); }
.card.os-windows::before { background: var(--windows); }
.card.notready { border-color: rgba(248, 113, 113, .5); }
.card.notready::before { background: var(--bad); }
.card-head { display: flex; align-items: center; gap: 8px; }
.node-name { font-weight: 600; font-size: 14px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; flex: 1; min-width: 0; }
.state { font-size: 11px; font-weight: 600; padding: 2px 8px; border-radius: 999px; white-space: nowrap; }
.state.ready { color: var(--ok); background: rgba(52, 211, 153, .12); }
.state.notready { color: var(--bad); background: rgba(248, 113, 113, .14); }
.state.cordon { color: var(--warn); background: rgba(251, 191, 36, .12); }
.os-line { color: var(--muted); font-size: 12px; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.tags { display: flex; flex-wrap: wrap; gap: 5px; }
.tag { max-width: 100%; overflow: hidden; text-overflow: ellipsis; font-size: 11px; padding: 1px 7px; border-radius: 5px; border: 1px solid var(--line-2); color: var(--muted); white-space: nowrap; background: var(--panel-2); }
.tag.build { color: #0b1120; border: 0; font-weight: 650; }
.tag.build.ws2019 { background: var(--ws2019); }
.tag.build.ws2022 { background: var(--ws2022); }
.tag.build.ws2025 { background: var(--ws2025); }
.tag.build.other { background: #94a3b8; }
.tag.role { color: var(--info); border-color: rgba(96, 165, 250, .35); }
.tag.taint { color: var(--warn); border-color: rgba(251, 191, 36, .35); background: rgba(251, 191, 36, .06); font-family: var(--mono); font-size: 10.5px; }
.tag.taint.noexec { color: var(--bad); border-color: rgba(248, 113, 113, .4); background: rgba(248, 113, 113, .06); }
.tag.pressure { color: var(--bad); border-color: rgba(248, 113, 113, .4); }
.tag.os-linux { color: var(--linux); border-color: rgba(242, 169, 59, .35); }
.tag.os-windows { color: var(--windows); border-color: rgba(74, 163, 255, .35); }
.meters { display: grid; grid-template-columns: 34px 1fr auto; gap: 5px 8px; align-items: center; font-size: 11.5px; }
.meters .lbl { color: var(--faint); font-size: 10.5px; letter-spacing: .06em; }
.meters .num { color: var(--muted); font-variant-numeric: tabular-nums; text-align: right; white-space: nowrap; }
.meters .num b { color: var(--text); font-weight: 600; }
.bar { height: 6px; background: var(--line); border-radius: 3px; overflow: hidden; }
.bar > span { display: block; height: 100%; border-radius: 3px; background: var(--ok); transition: width .4s ease; }
.bar.mid > span { background: var(--warn); }
.bar.high > span { background: var(--bad); }
.pods { display: flex; flex-wrap: wrap; gap: 5px; min-height: 24px; padding-top: 2px; border-top: 1px dashed var(--line); padding-top: 8px; }
.pods .none { color: var(--faint); font-size: 11.5px; }

/* pod chips */
.chip { display: inline-flex; align-items: center; gap: 5px; max-width: 100%; font-size: 11.5px; padding: 2px 8px 2px 6px; border-radius: 6px; border: 1px solid transparent; cursor: default; white-space: nowrap; }
.chip .nm { overflow: hidden; text-overflow: ellipsis; max-width: 240px; }
.chip .ns { color: var(--faint); }
.chip-dot { display: inline-block; width: 7px; height: 7px; border-radius: 50%; flex: none; }
.ph-running { background: var(--ok); }
.ph-notready { background: transparent; box-shadow: inset 0 0 0 1.5px var(--ok); }
.ph-pending { background: var(--warn); }
.ph-succeeded { background: var(--done); }
.ph-failed { background: var(--bad); }
.ph-unknown { background: #a78bfa; }
.ph-terminating { background: transparent; box-shadow: inset 0 0 0 1.5px var(--muted); }
.chip.ph-running { background: rgba(52, 211, 153, .12); border-color: rgba(52, 211, 153, .28); color: #c9f5e3; }
.chip.ph-notready { box-shadow: none; background: transparent; border-color: rgba(52, 211, 153, .45); border-style: dashed; color: #c9f5e3; }
.chip.ph-pending { background: rgba(251, 191, 36, .12); border-color: rgba(251, 191, 36, .3); color: #fde9b0; }
.chip.ph-succeeded { background: rgba(100, 116, 139, .14); border-color: rgba(100, 116, 139, .35); color: var(--muted); }
.chip.ph-failed { background: rgba(248, 113, 113, .13); border-color: rgba(248, 113, 113, .35); color: #fecaca; }
.chip.ph-unknown { background: rgba(167, 139, 250, .12); border-color: rgba(167, 139, 250, .3); color: #ddd6fe; }
.chip.ph-terminating { box-shadow: none; background: transparent; border-color: var(--line-2); border-style: dashed; color: var(--muted); }
.chip .why { color: inherit; opacity: .75; font-size: 10.5px; }
`;
