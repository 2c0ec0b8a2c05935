// How the console shows an error record, by the session's $ErrorView: Windows PowerShell 5.1 defaults to NormalView,
// PowerShell 7 to ConciseView (PowerShell's DefaultFormatters/PowerShellCore_format_ps1xml.cs, ErrorInstance view).

import { categoryInfo, errorView, positionMessage } from './format.js';
import type { PsError } from './values.js';

export type PsEdition = 'Desktop' | 'Core';
export type ErrorViewName = 'NormalView' | 'CategoryView' | 'ConciseView';

/** The views $ErrorView takes in each edition ($ErrorView = 'ConciseView' means nothing to 5.1, which shows it Normal). */
const VIEWS: Record<PsEdition, readonly ErrorViewName[]> = { Desktop: ['NormalView', 'CategoryView'], Core: ['NormalView', 'CategoryView', 'ConciseView'] };

export function defaultErrorView(edition: PsEdition): ErrorViewName {
  return edition === 'Core' ? 'ConciseView' : 'NormalView';
}

/** The text an error record prints as, in the view $ErrorView names (its edition's default when unset or unknown). */
export function renderError(e: PsError, src: string, width: number, edition: PsEdition, errorView$: string | undefined): string {
  const asked = VIEWS[edition].find((v) => v.toLowerCase() === (errorView$ ?? '').toLowerCase());
  const view = asked ?? defaultErrorView(edition);
  if (view === 'CategoryView') return `${categoryInfo(e)}\r\n`;
  if (view === 'ConciseView') return `${conciseView(e, src, width)}\r\n`;
  return errorView(e, src, width, edition);
}

/**
 * The ConciseView's reason, the word before the colon: "Exception" for `throw`, else the command that failed when
 * Get-Command finds it by name (a cmdlet or function; not the -Command text, whose ScriptInfo has no name, nor a script
 * file outside PATH), else CategoryInfo.Activity (Write-Error's record says Write-Error), else the name it was invoked
 * by (a command not found), else the category unless NotSpecified (0, which PowerShell treats as false), else
 * CategoryInfo.Reason, the exception's type name.
 */
function reason(e: PsError): string {
  if (e.thrown) return 'Exception';
  if (/^[\w.-]+$/.test(e.command) && !/\.ps1$/i.test(e.command)) return e.command;
  if (e.activity) return e.activity;
  if (e.exceptionType === 'CommandNotFoundException' && e.target) return e.target;
  if (e.category && e.category !== 'NotSpecified') return e.category;
  return e.exceptionType;
}

/** Cuts a string at `length`, back to its last whitespace (Get-TruncatedString). */
function truncated(s: string, length: number): string {
  if (s.length <= length) return s;
  const cut = s.slice(0, length);
  const i = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf('\t'));
  return i < 0 ? cut : cut.slice(0, i);
}

/**
 * PowerShell 7's ConciseView (Get-ConciseViewPositionMessage): `<reason>: <message>`; with the error's line shown under
 * `Line |` when it comes from a script file or from past the first line of the command, the message then under the
 * underline. A script file's position heads the block (`C:\s.ps1:4`) and its message wraps at the window width.
 */
export function conciseView(e: PsError, src: string, width: number): string {
  const pos = positionMessage(e, src, width);
  const parseError = e.category === 'ParserError';
  let posmsg = '';
  let message = '';
  if (pos && (parseError || pos.path || pos.lineNo > 1)) {
    const digits = String(pos.lineNo).length;
    const headerWs = digits > 4 ? ' '.repeat(digits - 4) : '';
    const lineWs = digits < 4 ? ' '.repeat(4 - digits) : '';
    posmsg = pos.path ? `${pos.path}:${pos.lineNo}\r\n` : '\r\n';
    posmsg += `${headerWs}Line |\r\n`;
    // PositionMessage's second and last lines without their leading '+'.
    const line = pos.lines[1].slice(1);
    const highlight = pos.lines[pos.lines.length - 1].slice(1);
    posmsg += `${lineWs}${pos.lineNo} | ${line}\r\n`;
    const prefix = `${headerWs}     | `;
    if (highlight !== '') posmsg += `${prefix}${highlight}\r\n`;
    message = prefix;
  }
  const prefixLen = message.length;
  message += e.message;
  if (pos?.path || parseError) {
    message = message.replace(/\r\n|\n|\t/g, ' ');
    if (message.length > width) {
      const parts: string[] = [];
      const first = truncated(message, width);
      parts.push(first);
      let rest = message.slice(first.length).trim();
      const prefix = message.slice(0, prefixLen);
      while (rest.length + prefixLen > width) {
        const sub = truncated(prefix + rest, width);
        if (sub.length - prefixLen <= 0) break;
        parts.push(sub);
        rest = rest.slice(sub.length - prefixLen).trim();
      }
      parts.push(prefix + rest.trim());
      message = parts.join('\r\n');
    }
    message += '\r\n';
  }
  return `${reason(e)}: ${posmsg}${message}`.replace(/\r\n$/, '');
}
